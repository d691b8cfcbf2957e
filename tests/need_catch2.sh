#!/bin/sh
# Makes sure Catch2 (v2 or v3) can be included; installs it with apt-get when root, else says how.
CXX=${CXX:-g++}
have() {
  printf '#include "tests/catch.hpp"\n' | $CXX -std=c++20 $(pkg-config --cflags catch2-with-main 2>/dev/null) -I. -x c++ -fsyntax-only - 2>/dev/null
}
have && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Catch2 is missing: installing the catch2 package" >&2
  { apt-get install -y catch2 || { apt-get update && apt-get install -y catch2; }; } >/dev/null || exit 1
  have && exit 0
fi
echo "Catch2 is missing. Install it: sudo apt-get install catch2 (Debian/Ubuntu) or brew install catch2 (macOS)" >&2
exit 1
