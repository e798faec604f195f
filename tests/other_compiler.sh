#!/usr/bin/env bash
# weft must work with g++ and clang++: builds the bug-class, exact-count and time programs with
# the compiler the build did not use, against the same libweft.so, and runs them.
# usage: other_compiler.sh <c++ compiler> <source dir> <lib dir> <work dir>
set -euo pipefail
cxx=$1 src=$2 lib=$3 work=$4
mkdir -p "$work"
flags=(-std=c++20 -O2 -g -fsanitize=thread -I"$src/include")
case "$("$cxx" --version)" in
  *clang*) flags+=(-mllvm -tsan-instrument-read-before-write=1) ;;
esac
for t in bug_classes_test exact_counts_test time_test; do
  "$cxx" "${flags[@]}" -c "$src/tests/programs/$t.cpp" -o "$work/$t.o"
  "$cxx" "$work/$t.o" -o "$work/$t" -L"$lib" -lweft -Wl,-rpath,"$lib" -lgtest -lgtest_main -pthread
  "$work/$t" --gtest_brief=1
done
