// Catch2's main, compiled once. v3 ships it as a library (Catch2Main); v2 is header-only.
#if __has_include(<catch2/catch_test_macros.hpp>)
// nothing: linked from -lCatch2Main
#else
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
