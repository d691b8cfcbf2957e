module bench/peers

go 1.18
