// WEFT_TEST (include/weft/gtest.hpp) end to end: runs gtest_macro_cases as a developer or
// CI would, and checks its exit status and what it prints: the report and replay command
// on a bug, the correct twins passing, the environment's overrides, bad values, replay.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kCases = WEFT_CASES;

using weft::test::Output;

// Runs `command` (VAR=value ... program args) by the shell, without the caller's own WEFT_*
// variables, so that a CI setting them cannot change the expectations.
Output run(const std::string& command) {
  return weft::test::sh("env -u WEFT_STRATEGY -u WEFT_EXECUTIONS -u WEFT_TIME -u WEFT_SEED "
                        "-u WEFT_REPLAY -u CASES_EXPECTED -u CASES_LOG -u WEFT_SHARD "
                        "-u GTEST_SHARD_INDEX -u GTEST_TOTAL_SHARDS -u TEST_SHARD_STATUS_FILE "
                        "-u GTEST_SHARD_STATUS_FILE -u WEFT_FAILURE_DIR " + command);
}

// The cases binary with `env` and a gtest filter.
Output cases(const std::string& env, const std::string& filter) {
  return run(env + " " + kCases + " --gtest_filter=" + filter);
}

// The line of `out` that starts with `prefix`, without it; "" when there is none.
std::string line_after(const std::string& out, const std::string& prefix) {
  const std::size_t at = out.find("\n" + prefix);
  if (at == std::string::npos) return "";
  const std::size_t start = at + 1 + prefix.size();
  return out.substr(start, out.find('\n', start) - start);
}

// The schedule records the Options it was found with: a livelock found within 300 steps
// replays within 300 steps, though the test's options now say 100000 (its replay would
// otherwise run past the schedule's end).
TEST(WeftTest, WeftReplayUsesTheRecordedOptions) {
  const fs::path dir = fs::temp_directory_path() / ("weft-recorded-" + std::to_string(getpid()));
  Output o = cases("CASES_STEPS=300 WEFT_FAILURE_DIR=" + dir.string(), "Recorded.Steps");
  EXPECT_EQ(o.status, 1) << o.out;
  ASSERT_TRUE(o.has("bug: livelock")) << o.out;
  const fs::path file = dir / "Recorded.Steps.weft-schedule";
  std::ifstream in(file);
  std::string schedule;
  std::getline(in, schedule);
  EXPECT_NE(schedule.find(".steps=300."), std::string::npos) << schedule;
  for (const std::string& given : {file.string(), "'" + schedule + "'"}) {
    o = cases("WEFT_REPLAY=" + given, "Recorded.Steps");
    EXPECT_EQ(o.status, 1) << o.out;
    EXPECT_TRUE(o.has("weft: WEFT_REPLAY reproduces the bug:")) << o.out;
    EXPECT_TRUE(o.has("bug: livelock")) << o.out;
  }
  fs::remove_all(dir);
}

TEST(WeftTest, ABugFailsTheTestWithTheReportAndTheReplayCommand) {
  Output o = cases("", "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft found a bug:")) << o.out;
  EXPECT_TRUE(o.has("bug: assertion: WEFT_ASSERT(counter >= kExpected) failed")) << o.out;
  EXPECT_TRUE(o.has("interleaving (")) << o.out;
  EXPECT_TRUE(o.has("gtest_macro_cases.cpp:")) << "the source line of the bug\n" << o.out;
  EXPECT_TRUE(o.has("[  FAILED  ] LostUpdate.Found")) << o.out;
  // The replay line is a command for this binary, not the API's generic hint.
  const std::string replay = line_after(o.out, "replay: ");
  EXPECT_EQ(replay.rfind("WEFT_REPLAY='weft", 0), 0u) << o.out;
  EXPECT_NE(replay.find(fs::canonical(kCases).string() + " --gtest_filter=LostUpdate.Found"),
            std::string::npos) << replay;
  EXPECT_FALSE(o.has("weft::replay(<the same body>")) << o.out;
}

// The schedule goes to a file CI can keep, named in the message, that WEFT_REPLAY replays:
// in WEFT_FAILURE_DIR, else in weft-failures/ beside the binary.
TEST(WeftTest, AFailureWritesItsScheduleToAFileThatReplaysIt) {
  const fs::path dir = fs::temp_directory_path() / ("weft-failures-" + std::to_string(getpid()));
  const fs::path file = dir / "LostUpdate.Found.weft-schedule";
  Output o = cases("WEFT_FAILURE_DIR=" + dir.string(), "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  ASSERT_TRUE(fs::exists(file)) << o.out;
  std::string schedule;
  std::getline(std::ifstream(file) >> std::ws, schedule);
  EXPECT_EQ(schedule.rfind("weft", 0), 0u) << schedule;
  EXPECT_TRUE(o.has("schedule written to " + file.string() + "; replay it with: WEFT_REPLAY=" +
                    file.string() + " " + fs::canonical(kCases).string() +
                    " --gtest_filter=LostUpdate.Found"))
      << o.out;
  o = cases("WEFT_REPLAY=" + file.string(), "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_REPLAY reproduces the bug:")) << o.out;
  fs::remove_all(dir);
  // By default, beside the binary.
  const fs::path beside = fs::canonical(kCases).parent_path() / "weft-failures" / "LostUpdate.Found.weft-schedule";
  fs::remove(beside);
  o = cases("", "LostUpdate.Found");
  EXPECT_TRUE(fs::exists(beside)) << o.out;
  EXPECT_TRUE(o.has("schedule written to " + beside.string())) << o.out;
}

TEST(WeftTest, TheCorrectTwinsPass) {
  Output o = cases("", "LostUpdate.Locked:Expect.InOrder");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(o.has("[  PASSED  ] 2 tests")) << o.out;
  EXPECT_TRUE(o.has("[   weft   ] LostUpdate.Locked: no bug in 1000 executions (strategy random, seed 0"))
      << "the default budget, said\n" << o.out;
}

TEST(WeftTest, AGtestCheckInAThreadOfTheBodyIsTheBug) {
  Output o = cases("", "Expect.InAThread");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft found a bug:")) << o.out;
  EXPECT_TRUE(o.has("bug: assertion: Expected equality of these values:")) << o.out;
  EXPECT_TRUE(o.has("the flag came before the data")) << o.out;
  EXPECT_TRUE(o.has("replay: WEFT_REPLAY='weft")) << o.out;
}

TEST(WeftTest, FailuresAsBugsInAPlainTest) {
  Output o = cases("", "Plain.ChecksAroundExplore");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("the test's own check, after the exploration:")) << o.out;
  EXPECT_TRUE(o.has("bug: assertion: Expected equality of these values:")) << o.out;
  EXPECT_TRUE(o.has("inside the body")) << o.out;
  EXPECT_TRUE(o.has("[  FAILED  ] Plain.ChecksAroundExplore")) << o.out;
}

TEST(WeftTest, TheTestsOptionsAreUsed) {
  Output o = cases("", "Options.Budget");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(o.has("Options.Budget: no bug in 7 executions (strategy random, seed 3,")) << o.out;
}

TEST(WeftTest, TheEnvironmentOverridesThem) {
  Output o = cases("WEFT_STRATEGY=pct:2 WEFT_EXECUTIONS=4 WEFT_SEED=11", "Options.Budget");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(o.has("Options.Budget: no bug in 4 executions (strategy pct:2, seed 11,")) << o.out;

  // A time budget alone: no execution limit, about the time asked.
  o = cases("WEFT_EXECUTIONS=0 WEFT_TIME=0.5", "Options.Budget");
  EXPECT_EQ(o.status, 0) << o.out;
  const std::string summary = line_after(o.out, "[   weft   ] Options.Budget: no bug in ");
  ASSERT_FALSE(summary.empty()) << o.out;
  EXPECT_GT(std::stoull(summary), 7u) << summary;
  const std::size_t s = summary.find(" s);");
  ASSERT_NE(s, std::string::npos) << summary;
  const double elapsed = std::stod(summary.substr(summary.rfind(", ", s) + 2));
  EXPECT_GE(elapsed, 0.5) << summary;
  EXPECT_LT(elapsed, 10.0) << summary;
}

TEST(WeftTest, ALargerBudgetFromTheEnvironmentFindsWhatTheTestsMissed) {
  Output o = cases("", "Options.TooSmallABudget");
  EXPECT_EQ(o.status, 0) << o.out;
  o = cases("WEFT_EXECUTIONS=0", "Options.TooSmallABudget");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("bug: assertion: WEFT_ASSERT(counter == 2) failed")) << o.out;
}

TEST(WeftTest, ABadValueFailsNamingTheVariable) {
  struct Case {
    std::string env, expect;
  };
  for (const Case& c : {
           Case{"WEFT_EXECUTIONS=ten", "weft: WEFT_EXECUTIONS='ten' is not valid: give a whole number"},
           Case{"WEFT_EXECUTIONS=-5", "weft: WEFT_EXECUTIONS='-5' is not valid"},
           Case{"WEFT_EXECUTIONS=", "weft: WEFT_EXECUTIONS='' is not valid"},
           Case{"WEFT_TIME=soon", "weft: WEFT_TIME='soon' is not valid: give seconds"},
           Case{"WEFT_TIME=-1", "weft: WEFT_TIME='-1' is not valid"},
           Case{"WEFT_SEED=0x10", "weft: WEFT_SEED='0x10' is not valid: give a whole number"},
           Case{"WEFT_SEED=99999999999999999999", "weft: WEFT_SEED='99999999999999999999' is not valid"},
           // The words of weft run --seed and --time (tests/cli/hostile_input_test.cpp).
           Case{"WEFT_SEED=-1", "weft: WEFT_SEED='-1' is not valid: give a whole number from 0 to "
                                "18446744073709551615, or unset it"},
           Case{"WEFT_TIME=nan", "weft: WEFT_TIME='nan' is not valid: give seconds, a number from 0 "
                                 "to 1000000000 such as 600 or 2.5 (0: no limit), or unset it"},
           Case{"WEFT_TIME=1e99", "weft: WEFT_TIME='1e99' is not valid"},
           Case{"WEFT_STRATEGY=fastest", "weft: WEFT_STRATEGY='fastest' is not valid: "},
           Case{"WEFT_STRATEGY=pct:0", "weft: WEFT_STRATEGY='pct:0' is not valid: pct: the depth d"},
           // Read by the runtime as it starts: checked with the others, not taken for 1.
           Case{"WEFT_FIBERS=banana", "weft: WEFT_FIBERS='banana' is not valid: give 0 (no fibers"},
           Case{"WEFT_MINIMIZE=yes", "weft: WEFT_MINIMIZE='yes' is not valid: give 0 (the schedule as found) "
                                     "or 1 (minimised), or unset it"},
       }) {
    Output o = cases(c.env, "Options.Budget");
    EXPECT_EQ(o.status, 1) << c.env << "\n" << o.out;
    EXPECT_TRUE(o.has(c.expect)) << c.env << "\n" << o.out;
    EXPECT_FALSE(o.has("no bug in")) << "nothing ran: " << c.env << "\n" << o.out;
  }
  // An unknown strategy's error lists what is accepted.
  Output o = cases("WEFT_STRATEGY=fastest", "Options.Budget");
  EXPECT_TRUE(o.has("random")) << o.out;
}

// Sharding: the cases binary run as N separate processes, shard i of N each, as a CI
// engine would. Each run's log of executions (CASES_LOG: one line per execution, the
// order the body's threads took their lock in) and its tests' properties
// (--gtest_output=json: weft_executions, weft_shard, ...).
class Sharding : public weft::test::TempDirTest {
 protected:
  struct Run {
    Output output;
    std::map<std::string, nlohmann::json> tests;  // "Shard.Systematic": its JSON object
    std::multiset<std::string> log;               // "dfs aabb", one per execution
  };
  Run shard(const std::string& env, const std::string& tag) {
    const fs::path log = dir_ / (tag + ".log"), json = dir_ / (tag + ".json");
    Run r;
    r.output = cases("CASES_LOG=" + log.string() + " " + env,
                     "Shard.* --gtest_output=json:" + json.string());
    std::ifstream in(json);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.output.out;
    if (!j.is_discarded())
      for (const auto& suite : j["testsuites"])
        for (const auto& test : suite["testsuite"])
          r.tests[suite["name"].get<std::string>() + "." + test["name"].get<std::string>()] = test;
    std::ifstream lines(log);
    for (std::string line; std::getline(lines, line);) r.log.insert(line);
    return r;
  }
  static std::uint64_t executions(const Run& r, const std::string& test) {
    const auto it = r.tests.find(test);
    if (it == r.tests.end() || !it->second.contains("weft_executions")) {
      ADD_FAILURE() << test << " recorded no weft_executions\n" << r.output.out;
      return 0;
    }
    return std::stoull(it->second["weft_executions"].get<std::string>());
  }
  static std::multiset<std::string> lines_of(const Run& r, const std::string& tag) {
    std::multiset<std::string> out;
    for (const std::string& l : r.log)
      if (l.rfind(tag + " ", 0) == 0) out.insert(l);
    return out;
  }
};

TEST_F(Sharding, GtestShardsSplitEachSearchAndRunEveryTest) {
  const Run whole = shard("", "whole");
  ASSERT_EQ(whole.output.status, 0) << whole.output.out;
  EXPECT_EQ(whole.tests.at("Shard.Systematic")["weft_shard"], "0/1");
  EXPECT_EQ(whole.tests.at("Shard.Systematic")["weft_complete"], "true");
  const std::uint64_t dfs_whole = executions(whole, "Shard.Systematic");
  EXPECT_EQ(executions(whole, "Shard.Sampled"), 40u);
  EXPECT_EQ(lines_of(whole, "dfs").size(), dfs_whole) << "an unsharded search runs no probe";

  const int n = 3;
  std::uint64_t dfs_sum = 0, random_sum = 0;
  std::multiset<std::string> dfs_lines, random_lines;
  for (int i = 0; i < n; ++i) {
    const std::string I = std::to_string(i), N = std::to_string(n);
    const fs::path status = dir_ / ("status" + I);
    const Run part = shard("GTEST_SHARD_INDEX=" + I + " GTEST_TOTAL_SHARDS=" + N +
                               " GTEST_SHARD_STATUS_FILE=" + status.string(),
                           "shard" + I);
    ASSERT_EQ(part.output.status, 0) << part.output.out;
    // gtest did not hand out the tests: every one ran in every shard, plain TESTs too.
    EXPECT_TRUE(part.output.has("[  PASSED  ] 3 tests.")) << part.output.out;
    EXPECT_TRUE(part.output.has("[       OK ] Shard.Plain")) << part.output.out;
    EXPECT_TRUE(fs::exists(status)) << "Bazel's sign that the test shards";
    for (const char* test : {"Shard.Systematic", "Shard.Sampled"}) {
      EXPECT_EQ(part.tests.at(test)["weft_shard"], I + "/" + N) << test;
      const std::string said = "[   weft   ] " + std::string(test) + ": shard " + I + "/" + N +
                               " (GTEST_SHARD_INDEX=" + I + ", GTEST_TOTAL_SHARDS=" + N +
                               "): no bug in " + std::to_string(executions(part, test)) +
                               " executions";
      EXPECT_TRUE(part.output.has(said)) << said << "\n" << part.output.out;
    }
    EXPECT_EQ(part.tests.at("Shard.Systematic")["weft_complete"], "true");
    dfs_sum += executions(part, "Shard.Systematic");
    random_sum += executions(part, "Shard.Sampled");
    for (const std::string& l : lines_of(part, "dfs")) dfs_lines.insert(l);
    for (const std::string& l : lines_of(part, "random")) random_lines.insert(l);
  }
  // dfs: the subtrees are disjoint and together the tree. The body also ran for the
  // shared executions near the root in every shard (probes, not counted), so its lines
  // hold the unsharded ones and some more.
  EXPECT_EQ(dfs_sum, dfs_whole);
  const std::multiset<std::string> dfs_whole_lines = lines_of(whole, "dfs");
  EXPECT_TRUE(std::includes(dfs_lines.begin(), dfs_lines.end(), dfs_whole_lines.begin(),
                            dfs_whole_lines.end()));
  // random: the shards drew exactly the unsharded seeds, the budget split among them.
  EXPECT_EQ(random_sum, 40u);
  EXPECT_EQ(random_lines, lines_of(whole, "random"));
}

TEST_F(Sharding, WeftShardWinsAndSaysSo) {
  const Run r = shard("WEFT_SHARD=1/2 GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS=3", "weft");
  ASSERT_EQ(r.output.status, 0) << r.output.out;
  EXPECT_TRUE(r.output.has("[   weft   ] Shard.Sampled: shard 1/2 (WEFT_SHARD; GTEST_SHARD_INDEX "
                           "and GTEST_TOTAL_SHARDS ignored): no bug in 20 executions"))
      << r.output.out;
  EXPECT_EQ(r.tests.at("Shard.Sampled")["weft_shard"], "1/2");
  EXPECT_TRUE(r.output.has("[  PASSED  ] 3 tests.")) << r.output.out;
}

TEST_F(Sharding, BadValuesFailTheWeftTestsNamingTheVariable) {
  struct Case {
    std::string env, expect;
  };
  for (const Case& c : {
           Case{"GTEST_SHARD_INDEX=3 GTEST_TOTAL_SHARDS=3",
                "weft: GTEST_SHARD_INDEX='3' is not valid: give this shard's number, a whole "
                "number from 0 to 2 (GTEST_TOTAL_SHARDS=3)"},
           Case{"GTEST_SHARD_INDEX=one GTEST_TOTAL_SHARDS=3", "weft: GTEST_SHARD_INDEX='one' is not valid"},
           Case{"GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS=0",
                "weft: GTEST_TOTAL_SHARDS='0' is not valid: give a whole number of shards from 1 "
                "to 1048576"},
           // weft run's and weft merge's limit, in their words (it took 2^32 - 1).
           Case{"GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS=1048577",
                "weft: GTEST_TOTAL_SHARDS='1048577' is not valid: give a whole number of shards "
                "from 1 to 1048576"},
           Case{"WEFT_SHARD=0/1048577", "weft: WEFT_SHARD='0/1048577' is not valid: give I/N"},
           Case{"GTEST_SHARD_INDEX=1",
                "weft: GTEST_SHARD_INDEX is set but GTEST_TOTAL_SHARDS is not: set both"},
           Case{"WEFT_SHARD=2/2", "weft: WEFT_SHARD='2/2' is not valid: give I/N, shard I of N "
                                  "with 0 <= I < N (such as 0/4), or unset it"},
           Case{"WEFT_SHARD=", "weft: WEFT_SHARD='' is not valid"},
       }) {
    const Run r = shard(c.env, "bad");
    EXPECT_EQ(r.output.status, 1) << c.env << "\n" << r.output.out;
    EXPECT_TRUE(r.output.has(c.expect)) << c.env << "\n" << r.output.out;
    EXPECT_TRUE(r.output.has("[  FAILED  ] Shard.Systematic")) << c.env << "\n" << r.output.out;
    EXPECT_TRUE(r.output.has("[  FAILED  ] Shard.Sampled")) << c.env << "\n" << r.output.out;
    EXPECT_TRUE(r.output.has("[       OK ] Shard.Plain")) << c.env << "\n" << r.output.out;
    EXPECT_FALSE(r.output.has("no bug in")) << "nothing explored: " << c.env << "\n" << r.output.out;
  }
}

TEST_F(Sharding, OptionsShardInAPlainTest) {
  const Output o = cases("", "ShardOption.*");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_TRUE(o.has("[       OK ] ShardOption.InAPlainTest")) << o.out;
}

class Replay : public ::testing::Test {
 protected:
  void SetUp() override {
    Output o = cases("", "LostUpdate.Found");
    ASSERT_EQ(o.status, 1) << o.out;
    bug_ = line_after(o.out, "bug: ");
    const std::string replay = line_after(o.out, "replay: WEFT_REPLAY='");
    schedule_ = replay.substr(0, replay.find('\''));
    ASSERT_EQ(schedule_.rfind("weft", 0), 0u) << o.out;
    // The command as printed, run by a shell as a developer would paste it.
    command_ = line_after(o.out, "replay: ");
  }
  std::string bug_, schedule_, command_;
};

TEST_F(Replay, ThePrintedCommandReproducesTheBug) {
  for (int i = 0; i < 2; ++i) {
    Output o = run(command_);
    EXPECT_EQ(o.status, 1) << o.out;
    EXPECT_TRUE(o.has("weft: WEFT_REPLAY reproduces the bug:")) << o.out;
    EXPECT_EQ(line_after(o.out, "bug: "), bug_) << o.out;
  }
}

TEST_F(Replay, FromAFile) {
  const fs::path file = fs::temp_directory_path() / ("weft-gtest-" + std::to_string(getpid()));
  std::ofstream(file) << schedule_ << "\n";
  Output o = cases("WEFT_REPLAY=" + file.string(), "LostUpdate.Found");
  fs::remove(file);
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_EQ(line_after(o.out, "bug: "), bug_) << o.out;
}

TEST_F(Replay, OtherTestsAreSkipped) {
  Output o = cases("WEFT_REPLAY='" + schedule_ + "'", "LostUpdate.*");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("[  SKIPPED ] LostUpdate.Locked")) << o.out;
  EXPECT_TRUE(o.has("WEFT_REPLAY holds a schedule of another test")) << o.out;
  EXPECT_TRUE(o.has("[  FAILED  ] LostUpdate.Found")) << o.out;
}

// A fix that keeps every scheduling point: the execution now goes on past the bug's
// step, so the schedule no longer applies, and the message says what to do.
TEST_F(Replay, AfterAFixTheScheduleNoLongerApplies) {
  Output o = cases("CASES_EXPECTED=1 WEFT_REPLAY='" + schedule_ + "'", "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: replay diverged at step")) << o.out;
  EXPECT_TRUE(o.has("unset WEFT_REPLAY to explore it again")) << o.out;
  EXPECT_FALSE(o.has("bug: ")) << o.out;
  // Explored again, the fixed code passes.
  o = cases("CASES_EXPECTED=1", "LostUpdate.Found");
  EXPECT_EQ(o.status, 0) << o.out;
}

TEST_F(Replay, BadSchedulesFailClearly) {
  Output o = cases("WEFT_REPLAY=/nonexistent/schedule", "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_REPLAY='/nonexistent/schedule' is neither a schedule")) << o.out;

  std::string broken = schedule_;
  broken.back() = broken.back() == '0' ? '1' : '0';  // its check no longer matches
  o = cases("WEFT_REPLAY='" + broken + "'", "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_REPLAY: invalid schedule: the check does not match")) << o.out;
  EXPECT_FALSE(o.has("no longer follows")) << o.out;
  EXPECT_FALSE(o.has("bug: ")) << o.out;
}

// A schedule of 2^30 decisions in 50 bytes (its check is no protection: anyone can compute
// it) and a "file" that never ends are refused before they fill memory.
TEST_F(Replay, HugeSchedulesAreRefusedBeforeTheyFillMemory) {
  std::string body = "weft1." + schedule_.substr(6, 16) + ".pb.1.0x1073741824";
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : body) h = (h ^ c) * 0x100000001b3ull;
  char check[9];
  std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(h));
  Output o = cases("WEFT_REPLAY='" + body + "." + check + "'", "LostUpdate.Found");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_REPLAY: invalid schedule: it holds more than 204100 decisions"))
      << o.out;
  // Under a virtual memory limit, reading /dev/zero whole would abort instead of growing.
  o = run("sh -c 'ulimit -v 2000000; WEFT_REPLAY=/dev/zero " + kCases +
          " --gtest_filter=LostUpdate.Found'");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_REPLAY='/dev/zero' names a file that has more than 4194304 bytes"))
      << o.out;
}

}  // namespace
