// weft under an address-space limit (ulimit -v, RLIMIT_AS, as CI runners and shared
// machines set): it reserves what a run needs, sized from --steps, leaving the program
// room, and when the limit is too small for it, says which limit and what to change.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

class Limits : public weft::test::TempDirTest {
 protected:
  // weft run `args` -- the test program `program`, under ulimit -v `kib`.
  Output run(long kib, const std::string& args, const std::string& program) {
    return sh("cd " + dir_.string() + " && ulimit -v " + std::to_string(kib) + " && " + kBin +
              "/weft run --jobs 1 " + args + " -- " + kBin + "/" + program);
  }
  static std::size_t lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
};

// 8 GB, where every run used to fail ("cannot map the shared trace memory"): race
// detection, the trace and the search fit, and the bug is found.
TEST_F(Limits, EightGigabytesAreEnough) {
  Output o = run(8000000, "-s dfs", "cli_deadlock");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("bug: deadlock")) << o.out;
  o = run(8000000, "-s dfs -n 200", "cli_locked");
  EXPECT_EQ(o.status, 0) << o.out;
}

// Too little for race detection's shadow memory: one line naming the limit and the way
// out; the way out works.
TEST_F(Limits, TooLittleForRaceDetectionSaysSo) {
  Output o = run(3000000, "-s dfs", "cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_EQ(lines(o.out), 1u) << o.out;
  EXPECT_TRUE(o.has("race detection's shadow memory: the address-space limit (ulimit -v) is "
                    "3000000 KiB; raise it (ulimit -v unlimited) or run with --races off"))
      << o.out;
  o = run(3000000, "-s dfs --races off", "cli_deadlock");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("bug: deadlock")) << o.out;
}

// Too little for the trace of --steps' executions: it says so, and fewer steps fit.
TEST_F(Limits, TooLittleForTheTraceSaysLowerSteps) {
  Output o = run(1500000, "-s dfs --races off --steps 10000000", "cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_EQ(lines(o.out), 1u) << o.out;
  EXPECT_TRUE(o.has("of address space for the trace of an execution of up to 10000000 steps: "
                    "the address-space limit (ulimit -v) is 1500000 KiB; raise it (ulimit -v "
                    "unlimited) or lower --steps"))
      << o.out;
  o = run(1500000, "-s dfs --races off", "cli_locked");
  EXPECT_EQ(o.status, 0) << o.out;
}

}  // namespace
