#!/usr/bin/env bash
# weft as a user gets it: `cmake --install` into a fresh prefix, then an external project
# built against that prefix alone.
#
#   install_test.sh install <build dir> <prefix> <cmake>
#     installs, and checks the files and that none of them points into the build tree.
#   install_test.sh external <prefix> <external source> <work dir> <c++ compiler> <cmake> <ctest>
#     find_package(weft) + weft_add_test + weft::cli + `ctest -L weft` (the bugs found, the
#     twins passing, an unlabelled test left out), weft-c++ + `weft run`, pkg-config flags.
set -euo pipefail

fail() { echo "install_test: FAIL: $*" >&2; exit 1; }
expect_in() {  # expect_in <file> <text> <what>
  grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$3: no '$2' in the output above"; }
}
expect_re() {
  grep -qE -- "$2" "$1" || { cat "$1" >&2; fail "$3: nothing matches '$2' in the output above"; }
}
expect_not_in() {
  ! grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$3: '$2' in the output above"; }
}
# Runs a command expected to exit with <status>; its output in <log>.
expect_status() {  # expect_status <status> <log> command...
  local want=$1 log=$2 got=0
  shift 2
  "$@" >"$log" 2>&1 || got=$?
  [ "$got" -eq "$want" ] || { cat "$log" >&2; fail "'$*' exited $got, expected $want"; }
}

# The caller's WEFT_* settings must not change what is expected here.
unset WEFT_STRATEGY WEFT_EXECUTIONS WEFT_TIME WEFT_SEED WEFT_REPLAY

mode=$1
shift
case "$mode" in
install)
  build=$1 prefix=$2 cmake=$3
  rm -rf "$prefix"
  "$cmake" --install "$build" --prefix "$prefix" >/dev/null
  for f in bin/weft bin/weft-cc bin/weft-c++ include/weft/weft.hpp include/weft/gtest.hpp \
           include/weft/environment.hpp include/weft/bug_kind.hpp lib/libweft.so \
           lib/cmake/weft/weftConfig.cmake lib/cmake/weft/weftConfigVersion.cmake \
           lib/cmake/weft/weftTargets.cmake lib/cmake/weft/weft.cmake lib/pkgconfig/weft.pc \
           share/doc/weft/README.md share/doc/weft/docs/tutorial.md \
           share/doc/weft/docs/choosing-a-strategy.md share/doc/weft/docs/troubleshooting.md \
           share/doc/weft/docs/json.md share/doc/weft/docs/schema/weft-result.schema.json; do
    [ -e "$prefix/$f" ] || fail "$f was not installed under $prefix"
  done
  [ -x "$prefix/bin/weft-c++" ] || fail "bin/weft-c++ is not executable"
  # The man page, unless the build was configured without it (-DWEFT_BUILD_MAN=OFF).
  if grep -q '^WEFT_BUILD_MAN:BOOL=ON' "$build/CMakeCache.txt"; then
    [ -s "$prefix/share/man/man1/weft.1" ] || fail "share/man/man1/weft.1 was not installed under $prefix"
  fi
  # Text files that name paths must name the prefix, never the build tree.
  for f in bin/weft-cc bin/weft-c++ lib/pkgconfig/weft.pc lib/cmake/weft/*.cmake; do
    ! sed "s|$prefix||g" "$prefix/$f" | grep -qF "$build" || fail "$f refers to the build directory $build"
  done
  grep -qF "libdir=\"$prefix/lib\"" "$prefix/bin/weft-c++" || fail "weft-c++ does not use $prefix/lib"
  "$prefix/bin/weft" strategies >/dev/null || fail "the installed weft does not run"
  echo "install_test: installed into $prefix"
  ;;
external)
  prefix=$1 source=$2 work=$3 cxx=$4 cmake=$5 ctest=$6
  rm -rf "$work"
  mkdir -p "$work"
  log=$work/log

  # CMake: find_package(weft CONFIG REQUIRED) from the prefix, weft_add_test, ctest -L weft.
  "$cmake" -S "$source" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$log" 2>&1 \
    || { cat "$log" >&2; fail "configuring the external project"; }
  grep -qF "weft_DIR:PATH=$prefix/lib/cmake/weft" "$work/build/CMakeCache.txt" \
    || fail "find_package(weft) did not find the package under $prefix"
  "$cmake" --build "$work/build" -j 2 >"$log" 2>&1 || { cat "$log" >&2; fail "building the external project"; }
  expect_status 8 "$log" "$ctest" --test-dir "$work/build" -L weft --output-on-failure --timeout 120
  expect_in "$log" "Total Test time" "ctest -L weft"
  expect_in "$log" "25% tests passed, 3 tests failed out of 4" "ctest -L weft runs the four weft tests"
  expect_not_in "$log" "unlabelled" "ctest -L weft leaves out an unlabelled test"
  expect_re "$log" "my_fixed_test \.+ +Passed" "the correct twin"
  expect_re "$log" "my_test \.+\*+Failed" "the bug"
  expect_in "$log" "bug: assertion: WEFT_ASSERT(stock.items >= 0) failed" "my_test's report"
  expect_in "$log" "buyers.hpp:" "the report's source lines"
  expect_in "$log" "weft found a bug:" "WEFT_TEST's failure message"
  expect_in "$log" "[  FAILED  ] Stock.LastItem" "WEFT_TEST with the bug"
  expect_in "$log" "[       OK ] Stock.LastItemLocked" "WEFT_TEST's correct twin"
  expect_in "$log" "replay: WEFT_REPLAY='weft" "WEFT_TEST's replay command"
  expect_re "$log" "whole_program_run \.+\*+Failed" "weft::cli run on the whole program"
  expect_in "$log" "bug: exit-code" "weft::cli run's report"
  # The tests run against the installed runtime.
  ldd "$work/build/my_test" >"$log" 2>&1
  expect_in "$log" "libweft.so => $prefix/lib/libweft.so" "my_test loads the installed runtime"

  # The installed compiler wrapper and CLI on a whole program.
  export WEFT_CXX=$cxx
  "$prefix/bin/weft-c++" -std=c++20 -O1 -I"$source" "$source/whole_program.cpp" -o "$work/whole_program" \
    >"$log" 2>&1 || { cat "$log" >&2; fail "weft-c++"; }
  expect_status 1 "$log" "$prefix/bin/weft" run --strategy random --executions 5000 --seed 1 \
    --schedule-out "$work/whole_program.weft-schedule" -- "$work/whole_program"
  expect_in "$log" "bug: exit-code" "weft run on the weft-c++ program"
  expect_in "$log" "sold 1 items too many" "the failing execution's output"
  expect_in "$log" "stock.hpp:" "the instrumented program's source lines"

  # pkg-config: compile with the instrumentation variable, link with the libs.
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  instrument=instrument
  case "$("$cxx" --version)" in *clang*) instrument=instrument_clang ;; esac
  [ "$(pkg-config --modversion weft)" != "" ] || fail "pkg-config does not find weft"
  # shellcheck disable=SC2046
  "$cxx" -std=c++20 -O1 $(pkg-config --cflags weft) $(pkg-config --variable=$instrument weft) \
    -c "$source/my_test.cpp" -o "$work/my_test_pc.o" >"$log" 2>&1 || { cat "$log" >&2; fail "compiling with pkg-config --cflags"; }
  # shellcheck disable=SC2046
  "$cxx" "$work/my_test_pc.o" -o "$work/my_test_pc" $(pkg-config --libs weft) >"$log" 2>&1 \
    || { cat "$log" >&2; fail "linking with pkg-config --libs"; }
  expect_status 1 "$log" "$work/my_test_pc"
  expect_in "$log" "bug: assertion: WEFT_ASSERT(stock.items >= 0) failed" "the pkg-config build's report"
  expect_in "$log" "interleaving (" "the pkg-config build's interleaving"
  echo "install_test: $cxx: find_package + weft_add_test + ctest -L weft, weft-c++, pkg-config: all as expected"
  ;;
*)
  fail "unknown mode '$mode' (install or external)"
  ;;
esac
