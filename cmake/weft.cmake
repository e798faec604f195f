# weft's CMake functions, in weft's own build and, installed, after
# find_package(weft CONFIG REQUIRED) (both give the target weft::weft).
#
# weft_instrument(<target>)
#   Compiles the target's sources for weft: -fsanitize=thread at compile time only (the
#   compiler emits __tsan_* calls for every memory access and atomic), and links weft's
#   runtime instead of libtsan. Works with g++ and clang++ (and gcc/clang for C).
#
# weft_add_test(<name> <sources>... [GTEST] [LABELS <label>...])
#   An instrumented executable and a CTest test of the same name, labelled `weft` (and
#   LABELS), so that `ctest -L weft` runs every such test. GTEST links GoogleTest and its
#   main (for WEFT_TEST, weft/gtest.hpp), finding GTest when the project has not.
function(weft_instrument target)
  target_compile_options(${target} PRIVATE -fsanitize=thread -g)
  # clang drops the read of a read-modify-write (x++); weft needs it as its own
  # scheduling point to expose lost updates. Per language: C and C++ may use different
  # compilers.
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang,AppleClang>:SHELL:-mllvm -tsan-instrument-read-before-write=1>"
    "$<$<COMPILE_LANG_AND_ID:C,Clang,AppleClang>:SHELL:-mllvm -tsan-instrument-read-before-write=1>")
  # g++ warns that TSan does not support atomic_thread_fence on every fence; weft models
  # fences, so the warning is wrong here.
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-tsan>"
                                           "$<$<COMPILE_LANG_AND_ID:C,GNU>:-Wno-tsan>")
  target_link_libraries(${target} PRIVATE weft::weft)
  # ... and first among the shared libraries, whatever the target links and in which order:
  # weft's definitions of the OpenMP runtimes' entry points (libgomp's GOMP_*, libomp's
  # __kmpc_*, omp_*) must win over theirs (OpenMP::OpenMP_CXX linked before weft::weft).
  target_link_options(${target} PRIVATE "LINKER:--push-state,--no-as-needed"
                      "$<TARGET_FILE:weft::weft>" "LINKER:--pop-state")
endfunction()

function(weft_add_test name)
  cmake_parse_arguments(ARG "GTEST" "" "LABELS" ${ARGN})
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weft_add_test(${name}): no source files (usage: weft_add_test(<name> <sources>... [GTEST] [LABELS <label>...]))")
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  weft_instrument(${name})
  if(ARG_GTEST)
    if(NOT TARGET GTest::gtest OR NOT TARGET GTest::gtest_main)
      find_package(GTest REQUIRED)
    endif()
    target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set(labels weft ${ARG_LABELS})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}")
endfunction()
