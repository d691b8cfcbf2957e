# Builds every scenario with -O2; `make test` builds and runs tests/; `make CXX=clang++` works.
CXX ?= g++
CXXFLAGS ?= -O2 -Wall -Wextra
REQUIRED := -std=c++20 -pthread

SCENARIOS := $(basename $(wildcard threads.cpp coro_timer.cpp coro_shared.cpp atomic_counter.cpp running_avg.cpp hash_collect.cpp))
TEST_SOURCES := $(wildcard tests/test_*.cpp)
# Objects and binaries built for tests, per compiler, so `make test CXX=clang++` does not reuse g++'s.
TEST_DIR := tests/build/$(notdir $(CXX))
# Catch2 v3 comes with pkg-config data and a main library; Debian's v2 is one header.
CATCH_CFLAGS := $(shell pkg-config --cflags catch2-with-main 2>/dev/null)
CATCH_LIBS := $(shell pkg-config --libs catch2-with-main 2>/dev/null)

# Scenario binaries go here; make asan and make tsan build theirs under tests/build.
BIN_DIR ?= .
BIN := $(if $(filter .,$(BIN_DIR)),,$(BIN_DIR)/)

all: $(addprefix $(BIN),$(SCENARIOS)) $(BIN)tools/fault_rate

# Everything built depends on a stamp that holds the compiler (its --version) and the flags: when
# either changes (`make CXX=clang++` after a g++ build), the stamp changes and everything rebuilds.
STAMP := $(BIN)build-flags.stamp
BUILD_ID := $(CXX) | $(shell $(CXX) --version 2>/dev/null | head -n 1) | $(REQUIRED) $(CXXFLAGS)
$(shell mkdir -p $(BIN_DIR); [ "$$(cat $(STAMP) 2>/dev/null)" = '$(BUILD_ID)' ] || printf '%s\n' '$(BUILD_ID)' > $(STAMP))

$(BIN)%: %.cpp common.hpp $(STAMP)
	$(CXX) $(REQUIRED) $(CXXFLAGS) -o $@ $<

# Not a scenario: how fast the machine faults in fresh memory, for run.sh's heading.
$(BIN)tools/fault_rate: tools/fault_rate.cpp $(STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(REQUIRED) $(CXXFLAGS) -o $@ $<

# Catch2's main takes ~17 s to compile: built once per compiler, linked into the test binary.
$(TEST_DIR)/catch_main.o: tests/catch_main.cpp tests/catch.hpp $(STAMP) | catch2
	@mkdir -p $(TEST_DIR)
	$(CXX) $(REQUIRED) $(CXXFLAGS) $(CATCH_CFLAGS) -c -o $@ $<

$(TEST_DIR)/%.o: tests/%.cpp tests/catch.hpp common.hpp $(wildcard *.cpp) $(STAMP) | catch2
	@mkdir -p $(TEST_DIR)
	$(CXX) $(REQUIRED) $(CXXFLAGS) $(CATCH_CFLAGS) -I. -c -o $@ $<

$(TEST_DIR)/unit: $(TEST_DIR)/catch_main.o $(patsubst tests/%.cpp,$(TEST_DIR)/%.o,$(TEST_SOURCES))
	$(CXX) $(REQUIRED) $(CXXFLAGS) -o $@ $^ $(CATCH_LIBS)

# The loop tests again on the macOS half of common.hpp's platform block (its kqueue poller and its
# memory readings), over a test-only emulation of the macOS calls (Linux only).
MACOS_TESTS := tests/test_core.cpp tests/test_runtime.cpp tests/test_macos.cpp
$(TEST_DIR)/macos_%.o: tests/%.cpp tests/catch.hpp tests/macos_shim.hpp common.hpp $(STAMP) | catch2
	@mkdir -p $(TEST_DIR)
	$(CXX) $(REQUIRED) $(CXXFLAGS) $(CATCH_CFLAGS) -include tests/macos_shim.hpp -I. -c -o $@ $<

$(TEST_DIR)/unit-macos: $(TEST_DIR)/catch_main.o $(patsubst tests/%.cpp,$(TEST_DIR)/macos_%.o,$(MACOS_TESTS))
	$(CXX) $(REQUIRED) $(CXXFLAGS) -o $@ $^ $(CATCH_LIBS)

UNITS := $(TEST_DIR)/unit $(if $(filter Linux,$(shell uname -s)),$(TEST_DIR)/unit-macos)
# make test: the runtime's unit tests and the shell tests of our binaries, run.sh, the sweeps and
# the charts, with fake peers (a minute or two). make test-peers: the real peers, built and run
# with every toolchain that is installed (several minutes, most of it cargo and NativeAOT).
PEER_TESTS := $(wildcard tests/real_*_test.sh)
SHELL_TESTS := $(filter-out $(PEER_TESTS),$(wildcard tests/*_test.sh)) tests/test_harness.py
# The shell tests that run our binaries. The others (run.sh, the peers, the sweeps, the charts and
# the documents) run fakes in a sandbox, so another compiler or a sanitizer changes nothing they
# run: make asan, make tsan and make test-binaries leave them out.
BINARY_TESTS := $(filter $(addprefix tests/,cli_test.sh container_test.sh faults_test.sh threads_test.sh),$(SHELL_TESTS))

test: all $(UNITS)
	@BIN_DIR=$(BIN_DIR) SANITIZER=$(SANITIZER) tests/run_all.sh $(UNITS) $(SHELL_TESTS)

# make test-binaries CXX=clang++: the unit tests and the binaries' shell tests, built by CXX.
test-binaries: all $(UNITS)
	@BIN_DIR=$(BIN_DIR) SANITIZER=$(SANITIZER) tests/run_all.sh $(UNITS) $(BINARY_TESTS)

test-peers: all
	@BIN_DIR=$(BIN_DIR) tests/run_all.sh $(PEER_TESTS)

# The unit tests and the binaries' shell tests under sanitizers, with clang++: g++ 12 turns symmetric transfer into a tail call
# only with optimization and never under ASan, so a long chain of synchronously completing awaits
# can overflow the stack there. Tests that cannot run under one are skipped by name
# (tests/lib.sh: skipped).
SAN_asan := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DBENCH_SANITIZED
SAN_tsan := -O1 -g -fsanitize=thread -DBENCH_SANITIZED
asan tsan:
	$(MAKE) test-binaries CXX=clang++ CXXFLAGS="$(SAN_$@)" TEST_DIR=tests/build/$@ BIN_DIR=tests/build/$@/bin SANITIZER=$@

# A machine where a process takes 7 ms to start: LD_PRELOAD=$PWD/tests/build/slow_start.so make test.
tests/build/slow_start.so: tests/slow_start.c
	@mkdir -p tests/build
	$(CC) -O2 -shared -fPIC -pthread -o $@ $<

# Installs Catch2 when it is missing and we can (root with apt-get); otherwise says how.
catch2:
	@CXX="$(CXX)" tests/need_catch2.sh

# For run.sh's results heading.
print-build:
	@echo "compiler=$$($(CXX) --version | head -n 1)"
	@echo "flags=$(REQUIRED) $(CXXFLAGS)"

clean:
	rm -rf $(SCENARIOS) tools/fault_rate $(STAMP) tests/build

.PHONY: all test test-binaries test-peers asan tsan catch2 print-build clean
