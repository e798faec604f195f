// OpenMP programs under weft (issue #28): weft's own OpenMP runtime (src/intercept/
// openmp*.cpp) runs libgomp's and libomp's entry points on threads, locks and barriers it
// controls. Each bug class of programs/openmp.c next to its correct twin.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

class OpenMp : public weft::test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
#if !WEFT_OPENMP
    GTEST_SKIP() << "this compiler has no OpenMP (-fopenmp): CMake found no OpenMP for C";
#endif
  }
  // The team size and schedule are weft's defaults, whatever the machine's environment.
  Output weft(const std::string& command, const std::string& args, const std::string& which) {
    return sh("cd " + dir_.string() + " && env -u OMP_NUM_THREADS -u OMP_SCHEDULE " + kBin +
              "/weft " + command + " " + args + " -- " + kBin + "/cli_openmp " + which);
  }
  Output run(const std::string& args, const std::string& which) {
    return weft("run", "--jobs 1 --seed 1 " + args, which);
  }
  // Never a bug, under systematic and sampling strategies, within their budgets.
  void expect_clean(const std::string& which) {
    for (const std::string strategy : {"dfs", "dpor", "pct", "random", "pos"}) {
      SCOPED_TRACE(which + " under " + strategy);
      const Output o = run("-n 300 -s " + strategy, which);
      EXPECT_EQ(o.status, 0) << o.out;
    }
  }
  // A bug with this headline under each strategy, and its schedule replays it.
  void expect_bug(const std::string& which, const std::string& headline) {
    for (const std::string strategy : {"dfs", "dpor", "pct", "random"}) {
      SCOPED_TRACE(which + " under " + strategy);
      const Output o = run("-n 2000 -s " + strategy, which);
      ASSERT_EQ(o.status, 1) << o.out;
      EXPECT_TRUE(o.has(headline)) << o.out;
      const Output r = weft("replay", "cli_openmp.weft-schedule", which);
      EXPECT_EQ(r.status, 1) << r.out;
      EXPECT_TRUE(r.has(headline)) << r.out;
    }
  }
};

// An unprotected `sum +=` in a parallel for is a data race; the same sum as a reduction,
// under `omp atomic`, or in a critical section (unnamed or named) is correct.
TEST_F(OpenMp, AnUnprotectedSumInAParallelForIsARace) {
  expect_bug("racy_sum", "bug: data-race");
  const Output o = run("-n 2000 -s random", "racy_sum");
  EXPECT_TRUE(o.has("openmp.c:")) << "where the race is\n" << o.out;
}

TEST_F(OpenMp, ReductionAtomicAndCriticalSumsAreCorrect) {
  expect_clean("reduction_sum");
  expect_clean("atomic_sum");
  expect_clean("critical_sum");
  expect_clean("named_critical_sum");
}

// Phases separated by `omp barrier`: without it, a thread reads a slot the other writes.
TEST_F(OpenMp, ABarrierSeparatesPhases) {
  expect_clean("barrier");
  expect_bug("missing_barrier", "bug: data-race");
}

// Two omp locks taken in opposite orders deadlock; in one order (with a nest lock set
// twice, and omp_test_lock) they do not.
TEST_F(OpenMp, OmpLocksInOppositeOrdersDeadlock) {
  expect_bug("lock_deadlock", "bug: deadlock");
  expect_clean("lock_order");
}

// Dynamic, guided and runtime schedules hand every iteration out once.
TEST_F(OpenMp, DynamicGuidedAndRuntimeSchedulesAreCorrect) {
  expect_clean("dynamic_sum");
  expect_clean("guided_runtime_sum");
  for (const std::string schedule : {"static", "dynamic,2", "guided", "auto"}) {
    const Output o = sh("cd " + dir_.string() + " && OMP_SCHEDULE=" + schedule + " " + kBin +
                        "/weft run --jobs 1 -n 100 -s random -- " + kBin + "/cli_openmp guided_runtime_sum");
    EXPECT_EQ(o.status, 0) << schedule << "\n" << o.out;
  }
}

// single, copyprivate, sections, master, tasks and taskwait, ordered: each as OpenMP says.
TEST_F(OpenMp, WorkSharingConstructsAreCorrect) {
  expect_clean("constructs");
  expect_clean("orphaned");  // outside a region too
  // A team of three, from OMP_NUM_THREADS.
  const Output o = sh("cd " + dir_.string() + " && OMP_NUM_THREADS=3 " + kBin +
                      "/weft run --jobs 1 -n 200 -s random -- " + kBin + "/cli_openmp constructs");
  EXPECT_EQ(o.status, 0) << o.out;
}

// A construct weft does not implement is a tool error that names it, never a hang in the
// real OpenMP runtime.
TEST_F(OpenMp, AnUnsupportedConstructIsRefused) {
  const Output o = run("-n 10", "unsupported");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("OpenMP construct `taskloop`")) << o.out;
  EXPECT_TRUE(o.has("is not supported")) << o.out;
}

// weft-cc -fopenmp, with gcc (libgomp's ABI) and with clang (libomp's): libweft comes first,
// so either compiler's OpenMP calls reach weft's runtime, with no LD_PRELOAD by the user.
TEST_F(OpenMp, TheWrapperBuildsOpenMpProgramsWithEitherCompiler) {
  for (const std::string compiler : {"gcc", "clang"}) {
    SCOPED_TRACE(compiler);
    const std::string exe = (dir_ / ("openmp-" + compiler)).string();
    // A compiler without an OpenMP runtime to link (clang without libomp-dev) is not weft's.
    if (sh("echo 'int main(void){return 0;}' | " + compiler + " -fopenmp -x c - -o " + exe).status != 0) {
      std::cout << compiler << " -fopenmp cannot link here: skipped\n";
      continue;
    }
    Output o = sh("WEFT_CC=" + compiler + " " + kBin + "/weft-cc -fopenmp -O1 " + WEFT_PROGRAMS_DIR +
                  "/openmp.c -o " + exe);
    ASSERT_EQ(o.status, 0) << o.out;
    const std::string run = "cd " + dir_.string() + " && env -u OMP_NUM_THREADS " + kBin +
                            "/weft run --jobs 1 --seed 1 -n 300 -s random -- " + exe + " ";
    o = sh(run + "racy_sum");
    EXPECT_EQ(o.status, 1) << o.out;
    EXPECT_TRUE(o.has("bug: data-race")) << o.out;
    for (const std::string which : {"reduction_sum", "critical_sum", "dynamic_sum", "constructs", "orphaned", "barrier"}) {
      o = sh(run + which);
      EXPECT_EQ(o.status, 0) << which << "\n" << o.out;
    }
    o = sh(run + "lock_deadlock");
    EXPECT_TRUE(o.has("bug: deadlock")) << o.out;
    o = sh(run + "unsupported");
    EXPECT_EQ(o.status, 2) << o.out;
    EXPECT_TRUE(o.has("OpenMP construct `taskloop`")) << o.out;
  }
}

// Outside weft (the program run on its own), the same runtime runs it for real.
TEST_F(OpenMp, ProgramsRunOutsideWeftToo) {
  for (const std::string which : {"reduction_sum", "dynamic_sum", "constructs", "orphaned", "lock_order", "barrier"}) {
    const Output o = sh("OMP_NUM_THREADS=3 " + kBin + "/cli_openmp " + which);
    EXPECT_EQ(o.status, 0) << which << "\n" << o.out;
    EXPECT_TRUE(o.has("10")) << which << "\n" << o.out;
  }
}

}  // namespace
