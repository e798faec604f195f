# weft_add_test(<name> <sources>... [GTEST] [LABELS <label>...])
#
# Builds a test executable whose sources are instrumented for weft: -fsanitize=thread at
# compile time only (the compiler emits __tsan_* calls for every memory access and atomic),
# linked with weft's runtime instead of libtsan. Works with g++ and clang++.
function(weft_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread -g)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang drops the read of a read-modify-write (x++); weft needs it as its own
    # scheduling point to expose lost updates.
    target_compile_options(${target} PRIVATE -mllvm -tsan-instrument-read-before-write=1)
  endif()
  target_link_libraries(${target} PRIVATE weft)
endfunction()

function(weft_add_test name)
  cmake_parse_arguments(ARG "GTEST" "" "LABELS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  weft_instrument(${name})
  if(ARG_GTEST)
    target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "weft;${ARG_LABELS}")
endfunction()
