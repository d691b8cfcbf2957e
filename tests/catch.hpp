// The one Catch2 shim: v3 (Homebrew, newer distributions) or v2 (Debian 12's catch2 package).
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif
