// weft run --isolate restore (#30): executions one after another in one process put back
// between them give what a child forked per execution gives: the same executions, the
// same bugs at the same executions with the same schedules, the same coverage and races.
// And it says so: restored_executions counts the executions it put back, and a program
// whose process cannot be put back runs forked, with a warning naming why.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/shell.hpp"

using nlohmann::json;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const std::string kSuite = WEFT_SUITE_DIR;  // the suite's programs: pass/ and fail/

using weft::test::Output;
using weft::test::sh;

json run(const std::string& isolate, const std::string& args, const std::string& program) {
  const Output o = sh(weft::test::kNoSharding + "WEFT_JOBS=1 " + kBin + "/weft run --isolate " +
                          isolate + " --json - " + args + " -- " + program,
                      "2>/dev/null");
  json j = json::parse(o.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << o.out;
  return j;
}

// What the two ways of running executions must agree on.
json outcome(const json& j) {
  json bugs = json::array();
  for (const json& b : j.value("bugs", json::array()))
    bugs.push_back({b.value("kind", ""), b.value("execution", 0), b.value("schedule", "")});
  return {{"executions", j.value("executions", 0)},
          {"complete", j.value("complete", false)},
          {"classes", j["coverage"].value("classes", 0)},
          {"coverage", j["coverage"].value("summary", "")},
          {"bugs", bugs},
          {"races", j.value("races", json::array()).size()},
          {"error", j.value("error", "")}};
}

struct Case {
  const char* program;  // in the suite
  const char* args;
};

// Complete searches, sampled budgets and first bugs, on programs built with weft's
// instrumentation (races and racy points) and without.
const Case kCases[] = {
    {"pass/refcount", "-s dfs -n 0"},
    {"pass/bank_transfer", "-s dpor -n 0"},
    {"pass/bank_transfer", "-s pb -n 0"},
    {"pass/stack", "-s pos -n 150 --seed 3"},
    {"pass/work_stealing_queue", "-s pct:3 -n 150 --seed 5"},
    {"pass/races", "-s dfs -n 0 --races report"},
    {"fail/spin_lock", "-s dfs -n 0 --no-minimize"},
    {"fail/reorder", "-s random -n 400 --seed 2"},
    {"fail/double_checked_locking", "-s dfs -n 0"},
    {"fail/bounded_queue", "-s pct:3 -n 400 --seed 1 --keep-going"},
    // A shard's probes (another shard's executions) repeat execution numbers.
    {"pass/lock_order_inversion", "-s dfs -n 0 --shard 0/2"},
    {"pass/bank_transfer", "-s dpor -n 0 --jobs 2"},
};

TEST(Isolate, RestoredExecutionsAreTheForkedOnes) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.program) + " " + c.args);
    const std::string program = kSuite + "/" + c.program;
    const json forked = run("fork", c.args, program);
    const json restored = run("restore", c.args, program);
    EXPECT_EQ(outcome(restored), outcome(forked));
    EXPECT_EQ(forked.value("restored_executions", 1), 0);
    // The process was put back (all but a runner's first execution and those after a bug
    // ended one), when there were executions enough.
    if (restored.value("executions", 0) >= 10) {
      EXPECT_GT(restored.value("restored_executions", 0), restored.value("executions", 0) / 2)
          << restored.dump();
    }
  }
}

// A program whose main thread leaves first (pthread_exit), the last worker then ending
// the process, cannot be put back: after a few tries each execution is forked, and the
// result says why.
TEST(Isolate, AProcessThatCannotBePutBackRunsForked) {
  const json j = run("restore", "-s dfs -n 40", kBin + "/cli_main_exits_first");
  const json f = run("fork", "-s dfs -n 40", kBin + "/cli_main_exits_first");
  EXPECT_EQ(outcome(j), outcome(f));
  EXPECT_EQ(j.value("restored_executions", 1), 0);
  bool said = false;
  for (const json& w : j.value("warnings", json::array()))
    said |= w.get<std::string>().find("--isolate restore: from execution 8 on") !=
                std::string::npos &&
            w.get<std::string>().find("other than its main thread") != std::string::npos;
  EXPECT_TRUE(said) << j.dump();
}

TEST(Isolate, AnotherValueIsRefused) {
  const Output o = sh(kBin + "/weft run --isolate thread -- " + kBin + "/cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("--isolate: thread is not valid") || o.has("must be one of fork, restore"))
      << o.out;
}

}  // namespace
