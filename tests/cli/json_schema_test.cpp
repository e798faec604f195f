// The JSON result's contract, end to end: what `weft run --json`, `weft replay --json`,
// `weft minimize --json` and `weft merge --json` write, on real programs, is valid against
// docs/schema/weft-result.schema.json (Debian's python3-jsonschema checks it), whose
// objects admit no property they do not document; every property it documents shows in
// some result; its enums are the source's names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/background_run.hpp"
#include "support/shell.hpp"
#include "weft/bug_kind.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kBin = WEFT_BIN_DIR;          // weft and the cli_* test programs
const std::string kSuite = WEFT_SUITE_DIR;      // the suite's programs: pass/ and fail/
const std::string kSource = WEFT_SOURCE_DIR;    // the repository
const std::string kPython = WEFT_PYTHON3;       // Debian's python3, with python3-jsonschema
const std::string kSchema = kSource + "/docs/schema/weft-result.schema.json";
const std::string kCheck = kSource + "/tests/cli/json_schema_check.py";

using weft::test::Output;
using weft::test::sh;

// One worker unless a test says --jobs.
const std::string kClean = weft::test::kNoSharding + "WEFT_JOBS=1 ";

// Every result the tests below produced, kept for the last test (every field shows).
const fs::path kKept = fs::temp_directory_path() / ("weft-json-schema-" + std::to_string(getpid()));
std::set<std::string> g_scenarios_done;
const std::set<std::string> kScenarios = {"no-bug", "assertion", "deadlock", "race", "heap",
                                          "minimized", "shards", "jobs", "tool-error",
                                          "misuse", "interrupted"};

class JsonSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = kKept / name_;
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string at(const std::string& file) const { return (dir_ / file).string(); }

  // Runs `weft <args>` with `--json FILE` in the test's directory; FILE's JSON. An
  // expected status below 0: 0 or 1 (a shard may or may not find the bug).
  json weft(const std::string& args, int expect_status, const std::string& file) {
    const std::string cmd = "cd " + dir_.string() + " && " + kClean + kBin + "/weft " + args;
    const std::size_t sep = cmd.find(" -- ");
    // --json before the program's `--`, after weft's subcommand options.
    const std::string with_json = sep == std::string::npos
                                      ? cmd + " --json " + at(file)
                                      : cmd.substr(0, sep) + " --json " + at(file) + cmd.substr(sep);
    const Output o = sh(with_json);
    if (expect_status >= 0)
      EXPECT_EQ(o.status, expect_status) << with_json << "\n" << o.out;
    else
      EXPECT_TRUE(o.status == 0 || o.status == 1) << with_json << "\n" << o.out;
    std::ifstream in(at(file));
    json j = json::parse(in, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << with_json << " wrote no JSON\n" << o.out;
    files_.push_back(at(file));
    return j;
  }

  // Validates every result this test wrote; the test's scenario counts as done if valid.
  void validate(const std::string& scenario) {
    ASSERT_FALSE(files_.empty());
    std::string cmd = kPython + " " + kCheck + " " + kSchema;
    for (const std::string& f : files_) cmd += " " + f;
    const Output o = sh(cmd);
    EXPECT_EQ(o.status, 0) << "not valid against " << kSchema << ":\n" << o.out;
    if (o.status == 0 && !HasFailure()) g_scenarios_done.insert(scenario);
  }

  std::string name_;
  fs::path dir_;
  std::vector<std::string> files_;
};

TEST_F(JsonSchema, NoBugCompleteSearch) {
  const json j = weft("run -s dfs -n 0 -- " + kBin + "/cli_locked", 0, "locked.json");
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_TRUE(j["bugs"].empty());
  EXPECT_EQ(j["coverage"]["kind"], "full");
  const json pb = weft("run -s pb:1 -n 0 -- " + kSuite + "/pass/bank_transfer", 0, "pb.json");
  EXPECT_EQ(pb["coverage"]["kind"], "preemption-bound");
  // Nothing to explore: the note says why.
  const json none = weft("run -s dfs -- " + kBin + "/cli_no_threads", 0, "no-threads.json");
  EXPECT_EQ(none["note"], "the program created no thread: there is nothing to explore");
  // Long executions cut at the bound.
  const json cut = weft("run -s random -n 2 --steps 20000 -- " + kBin + "/cli_long_locked", 0,
                        "cut.json");
  EXPECT_EQ(cut["cut_executions"], 2);
  validate("no-bug");
}

TEST_F(JsonSchema, AssertionBugWithRacesReported) {
  const json j = weft("run -s pb -n 1000 --seed 1 --races=report -- " + kSuite + "/fail/bank_transfer",
                      1, "bank.json");
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  EXPECT_EQ(j["bugs"][0]["kind"], "assertion");
  EXPECT_FALSE(j["races"].empty()) << "--races=report lists the races";
  // A crash, too (its pointer is published by a racy flag).
  const json crash = weft("run --races=report -s dfs -n 0 -- " + kBin + "/cli_null_deref", 1,
                          "crash.json");
  ASSERT_EQ(crash["bugs"].size(), 1u) << crash.dump();
  EXPECT_EQ(crash["bugs"][0]["kind"], "crash");
  // A livelock at the step bound: its trace the last 1000 steps, trace_omitted the rest.
  const json livelock = weft("run -s random --steps 3000 -- " + kBin + "/cli_two_spinners", 1,
                             "livelock.json");
  ASSERT_EQ(livelock["bugs"].size(), 1u) << livelock.dump().substr(0, 2000);
  EXPECT_EQ(livelock["bugs"][0]["trace_omitted"], 2000);
  // Wrong output, with its diff in details.
  const json wrong = weft("run --check-output -s dfs -- " + kBin + "/cli_missing_barrier bug", 1,
                          "wrong-output.json");
  ASSERT_EQ(wrong["bugs"].size(), 1u) << wrong.dump().substr(0, 2000);
  EXPECT_EQ(wrong["bugs"][0]["kind"], "wrong-output");
  validate("assertion");
}

TEST_F(JsonSchema, DeadlockWithBlockedThreadsAndItsReplay) {
  const json j = weft("run -s dfs -n 0 --schedule-out " + at("d.weft-schedule") + " -- " + kBin +
                          "/cli_deadlock",
                      1, "deadlock.json");
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  EXPECT_EQ(j["bugs"][0]["kind"], "deadlock");
  EXPECT_EQ(j["bugs"][0]["blocked"].size(), 3u) << "main joining, two threads locking\n" << j.dump();
  const json r = weft("replay " + at("d.weft-schedule") + " -- " + kBin + "/cli_deadlock", 1,
                      "replay.json");
  ASSERT_EQ(r["bugs"].size(), 1u) << r.dump();
  EXPECT_EQ(r["bugs"][0]["kind"], "deadlock");
  validate("deadlock");
}

TEST_F(JsonSchema, DataRaceAsBugAndAsReport) {
  const std::string program = kBin + "/cli_lost_update_exit < /dev/null";
  const json bug = weft("run -s dfs -n 0 -- " + program, 1, "race-bug.json");
  ASSERT_EQ(bug["bugs"].size(), 1u) << bug.dump();
  EXPECT_EQ(bug["bugs"][0]["kind"], "data-race");
  EXPECT_EQ(bug["bugs"][0]["race"]["accesses"].size(), 2u);
  // --races=report: the race listed, its accesses made scheduling points (racy_points,
  // a warning that the search restarted), and the lost update's exit code the bug.
  const json report = weft("run --races=report --preempt-on=racy -s dfs -n 0 -- " + program, 1,
                           "race-report.json");
  ASSERT_EQ(report["bugs"].size(), 1u) << report.dump();
  EXPECT_EQ(report["bugs"][0]["kind"], "exit-code");
  EXPECT_EQ(report["races"].size(), 1u) << report.dump();
  EXPECT_FALSE(report["racy_points"].empty()) << report.dump();
  EXPECT_FALSE(report["warnings"].empty()) << report.dump();
  // Named threads and a heap object (new): thread_names and heap_objects filled.
  const json named = weft("run -s dfs -n 0 -- " + kBin + "/cli_named_heap", 1, "named.json");
  ASSERT_EQ(named["bugs"].size(), 1u) << named.dump();
  EXPECT_EQ(named["bugs"][0]["thread_names"].size(), 2u) << named.dump();
  EXPECT_EQ(named["bugs"][0]["heap_objects"].size(), 1u) << named.dump();
  validate("race");
}

TEST_F(JsonSchema, ApiMisuseWithTheObjectsHistory) {
  const json j = weft("run -s dfs -- " + kBin + "/cli_api_misuse lock_destroyed", 1, "misuse.json");
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  EXPECT_EQ(j["bugs"][0]["kind"], "api-misuse");
  EXPECT_FALSE(j["bugs"][0]["misuse"]["history"].empty()) << j.dump();
  validate("misuse");
}

// Heap misuse: a use after free carries `race` (the free, then the access), a double
// free too (its second access a free); an invalid free none.
TEST_F(JsonSchema, UseAfterFreeAndInvalidFree) {
  const json uaf = weft("run -s dpor -- " + kBin + "/cli_deleted_queue", 1, "uaf.json");
  ASSERT_EQ(uaf["bugs"].size(), 1u) << uaf.dump();
  EXPECT_EQ(uaf["bugs"][0]["kind"], "use-after-free");
  EXPECT_EQ(uaf["bugs"][0]["race"]["accesses"][0]["access"], "free");
  const json twice = weft("run -s dfs -- " + kBin + "/cli_bad_free double", 1, "double.json");
  ASSERT_EQ(twice["bugs"].size(), 1u) << twice.dump();
  EXPECT_EQ(twice["bugs"][0]["race"]["accesses"][1]["access"], "free");
  const json bad = weft("run -s dfs -- " + kBin + "/cli_bad_free offset", 1, "invalid.json");
  ASSERT_EQ(bad["bugs"].size(), 1u) << bad.dump();
  EXPECT_EQ(bad["bugs"][0]["kind"], "invalid-free");
  validate("heap");
}

TEST_F(JsonSchema, MinimisedBugAndWeftMinimize) {
  const std::string deadlock = kBin + "/cli_deadlock";
  const json j = weft("run -s random --seed 2 -- " + deadlock, 1, "min.json");
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  EXPECT_TRUE(j["bugs"][0]["minimized"]["done"].get<bool>()) << j.dump();
  weft("run -s random --seed 2 --no-minimize --schedule-out " + at("first.weft-schedule") +
           " -- " + deadlock,
       1, "first.json");
  const json m = weft("minimize " + at("first.weft-schedule") + " --schedule-out " +
                          at("m.weft-schedule") + " -- " + deadlock,
                      1, "minimize.json");
  ASSERT_EQ(m["bugs"].size(), 1u) << m.dump();
  EXPECT_TRUE(m["bugs"][0].contains("minimized")) << m.dump();
  validate("minimized");
}

TEST_F(JsonSchema, ShardsAndTheirMerge) {
  const std::string pass = "-s dfs -n 0 -- " + kSuite + "/pass/lock_order_inversion";
  const json s0 = weft("run --shard 0/2 " + pass, 0, "pass0.json");
  EXPECT_EQ(s0["shard"]["index"], 0);
  EXPECT_EQ(s0["shard"]["count"], 2);
  weft("run --shard 1/2 " + pass, 0, "pass1.json");
  const json m = weft("merge " + at("pass0.json") + " " + at("pass1.json"), 0, "merged.json");
  EXPECT_TRUE(m["complete"].get<bool>()) << m.dump();
  EXPECT_EQ(m["shards"]["merged"], json::array({0, 1}));
  // A shard missing: named, no coverage claim.
  const json half = weft("merge " + at("pass0.json"), 0, "half.json");
  EXPECT_EQ(half["shards"]["missing"], json::array({1}));
  // Bugs in shards: the merge numbers them in the unsharded search, says which shard.
  const std::string fail = "-s pb -n 1000 --keep-going -- " + kSuite + "/fail/lock_order_inversion";
  weft("run --shard 0/2 --schedule-out " + at("f0.weft-schedule") + " " + fail, -1, "fail0.json");
  weft("run --shard 1/2 --schedule-out " + at("f1.weft-schedule") + " " + fail, -1, "fail1.json");
  const json bugs = weft("merge --schedule-out " + at("m.weft-schedule") + " " + at("fail0.json") +
                             " " + at("fail1.json"),
                         1, "merged-bugs.json");
  ASSERT_FALSE(bugs["bugs"].empty()) << bugs.dump();
  EXPECT_TRUE(bugs["bugs"][0].contains("shard_execution")) << bugs.dump();
  validate("shards");
}

TEST_F(JsonSchema, JobsRun) {
  const json pass = weft("run --jobs 2 -s dfs --no-state-cache -n 0 -- " + kSuite +
                             "/pass/lock_order_inversion",
                         0, "pass.json");
  EXPECT_EQ(pass["jobs"], 2);
  EXPECT_TRUE(pass["complete"].get<bool>());
  const json fail = weft("run --jobs 2 -s pos --seed 9 -- " + kSuite + "/fail/lock_order_inversion",
                         1, "fail.json");
  ASSERT_EQ(fail["bugs"].size(), 1u) << fail.dump();
  EXPECT_EQ(fail["jobs"], 2);
  // Systematic workers share the search: the bug's place in their rounds' order.
  const json team = weft("run --jobs 2 -s dfs --no-state-cache --no-minimize -- " + kSuite + "/fail/stack",
                         1, "team.json");
  ASSERT_EQ(team["bugs"].size(), 1u) << team.dump();
  EXPECT_TRUE(team["bugs"][0].contains("order")) << team.dump();
  validate("jobs");
}

// SIGINT once two workers run executions: the merged partial result says so.
TEST_F(JsonSchema, InterruptedRun) {
  using weft::test::BackgroundRun;
  const std::string file = at("interrupted.json");
  BackgroundRun run({kBin + "/weft", "run", "--jobs", "2", "-s", "random", "-n", "0", "--json",
                     file, "--", kBin + "/cli_long_locked"},
                    {"TMPDIR=" + dir_.string()}, at("interrupted.txt"));
  ASSERT_TRUE(BackgroundRun::poll([&] { return run.executions_running() > 0; }, 120))
      << run.output();
  run.send(SIGINT, /*its_group=*/true);
  EXPECT_EQ(run.wait_exit(120), 130) << run.output();
  std::ifstream in(file);
  const json j = json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << run.output();
  EXPECT_EQ(j.value("interrupted", ""), "SIGINT") << j.dump();
  EXPECT_FALSE(j["complete"].get<bool>()) << j.dump();
  files_.push_back(file);
  validate("interrupted");
}

TEST_F(JsonSchema, ToolErrorsInTheResult) {
  // A schedule of another program: a replay refused with an error, exit 2.
  weft("run -s dfs -n 0 --schedule-out " + at("d.weft-schedule") + " -- " + kBin + "/cli_deadlock",
       1, "deadlock.json");
  const json j = weft("replay " + at("d.weft-schedule") + " -- " + kBin + "/cli_locked", 2,
                      "other.json");
  ASSERT_TRUE(j.contains("error")) << j.dump();
  EXPECT_NE(j["error"].get<std::string>().find("another program"), std::string::npos) << j.dump();
  validate("tool-error");
}

// The enums are the source's names: a bug kind or an operation added to weft fails here
// until the schema lists it.
TEST(JsonSchemaEnums, AreTheSourcesNames) {
  std::ifstream in(kSchema);
  const json schema = json::parse(in, nullptr, false);
  ASSERT_FALSE(schema.is_discarded()) << kSchema;
  std::set<std::string> kinds;
  for (int k = 0; bug_kind_name(static_cast<weft::BugKind>(k)) != "unknown"; ++k)
    kinds.insert(std::string(bug_kind_name(static_cast<weft::BugKind>(k))));
  EXPECT_EQ(schema["$defs"]["bug_kind"]["enum"].get<std::set<std::string>>(), kinds);

  std::ifstream def(kSource + "/src/core/op_kinds.def");
  const std::regex op(R"re(^WEFT_OP\(\w+,\s*"([^"]+)")re");
  std::set<std::string> ops;
  std::smatch m;
  for (std::string line; std::getline(def, line);)
    if (std::regex_search(line, m, op)) ops.insert(m[1]);
  ASSERT_GT(ops.size(), 30u);
  EXPECT_EQ(schema["$defs"]["op"]["enum"].get<std::set<std::string>>(), ops);
}

// Last: every property the schema documents shows in some result above (the schema says
// what weft writes, no more). Needs the whole file's tests, in order.
TEST_F(JsonSchema, EveryDocumentedPropertyShowsInSomeResult) {
  if (g_scenarios_done != kScenarios)
    GTEST_SKIP() << "needs every scenario above, run first and valid";
  std::string cmd = kPython + " " + kCheck + " " + kSchema + " --all-fields";
  for (const auto& entry : fs::recursive_directory_iterator(kKept))
    if (entry.path().extension() == ".json") cmd += " " + entry.path().string();
  const Output o = sh(cmd);
  EXPECT_EQ(o.status, 0) << o.out;
}

// The results are removed when the tests end.
struct RemoveKept : ::testing::Environment {
  void TearDown() override { fs::remove_all(kKept); }
};
[[maybe_unused]] ::testing::Environment* const kRemoveKept =
    ::testing::AddGlobalTestEnvironment(new RemoveKept);

}  // namespace
