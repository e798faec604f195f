// Parallel and sharded exploration, end to end: weft run --jobs, --shard I/N and the
// engines' sharding variables, weft merge. The contract: N shards run as separate
// processes together run exactly the unsharded search's executions (systematic) or its
// seeds (samplers), and their merge makes the unsharded coverage statement.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/shell.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const std::string kSuite = WEFT_SUITE_DIR;  // the suite's programs: pass/ and fail/

using weft::test::Output;
using weft::test::sh;

// WEFT_JOBS is the test's to set.
const std::string kClean = weft::test::kNoSharding + "-u WEFT_JOBS ";

class Shards : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("weft-shard-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  // weft run with `env` (engine variables) and `args`; its JSON result.
  json run(const std::string& env, const std::string& args, int expect, const std::string& out) {
    const Output o = sh("cd " + dir_.string() + " && " + kClean + env + " " + kBin +
                        "/weft run -q --json " + at(out) + " " + args);
    if (expect >= 0)
      EXPECT_EQ(o.status, expect) << env << " " << args << "\n" << o.out;
    else
      EXPECT_TRUE(o.status == 0 || o.status == 1) << env << " " << args << "\n" << o.out;
    std::ifstream in(at(out));
    json j = json::parse(in, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << o.out;
    return j;
  }
  json merge(const std::vector<std::string>& files, int expect) {
    std::string cmd = "cd " + dir_.string() + " && " + kBin + "/weft merge -q --json " + at("merged.json");
    for (const std::string& f : files) cmd += " " + at(f);
    const Output o = sh(cmd);
    EXPECT_EQ(o.status, expect) << cmd << "\n" << o.out;
    std::ifstream in(at("merged.json"));
    return json::parse(in, nullptr, false);
  }
  fs::path dir_;
};

// Each engine's variables, for shard i of n.
std::string engine_env(int engine, int i, int n) {
  const std::string I = std::to_string(i), N = std::to_string(n);
  switch (engine % 4) {
    case 0: return "TEST_SHARD_INDEX=" + I + " TEST_TOTAL_SHARDS=" + N;           // Bazel
    case 1: return "GTEST_SHARD_INDEX=" + I + " GTEST_TOTAL_SHARDS=" + N;         // GoogleTest
    case 2: return "JOB_COMPLETION_INDEX=" + I + " WEFT_SHARDS=" + N;             // Kubernetes
    default:                                                                       // Slurm, from 1
      return "SLURM_ARRAY_TASK_ID=" + std::to_string(i + 1) + " SLURM_ARRAY_TASK_COUNT=" + N +
             " SLURM_ARRAY_TASK_MIN=1";
  }
}

// Systematic searches: the shards' executions add up to the unsharded count exactly, and
// the merge states the same complete coverage.
TEST_F(Shards, SystematicShardsRunTheUnshardedSearchOnce) {
  const std::string program = kSuite + "/pass/lock_order_inversion";
  int engine = 0;
  for (const std::string strategy : {"dfs --no-state-cache", "pb:1 --no-state-cache", "dpor"}) {
    const json whole = run("WEFT_JOBS=1", "-s " + strategy + " -n 0 -- " + program, 0, "whole.json");
    ASSERT_TRUE(whole["complete"].get<bool>()) << strategy;
    const int n = 3;
    std::vector<std::string> files;
    std::uint64_t executions = 0;
    for (int i = 0; i < n; ++i) {
      const std::string f = "shard" + std::to_string(i) + ".json";
      const json part = run("WEFT_JOBS=1 " + engine_env(engine++, i, n),
                            "-s " + strategy + " -n 0 -- " + program, 0, f);
      EXPECT_EQ(part["shard"]["index"], i);
      EXPECT_EQ(part["shard"]["count"], n);
      EXPECT_TRUE(part["complete"].get<bool>());
      executions += part["executions"].get<std::uint64_t>();
      files.push_back(f);
    }
    const json m = merge(files, 0);
    EXPECT_TRUE(m["complete"].get<bool>()) << strategy;
    EXPECT_EQ(m["coverage"]["kind"], whole["coverage"]["kind"]);
    EXPECT_TRUE(m["coverage"]["complete"].get<bool>());
    if (strategy == "dpor") {
      // DPOR branches the root fully when sharded: more executions (sleep-set blocked),
      // the same classes, none twice.
      EXPECT_EQ(m["coverage"]["classes"], whole["coverage"]["classes"]);
      EXPECT_GE(executions, whole["executions"].get<std::uint64_t>());
    } else {
      EXPECT_EQ(executions, whole["executions"].get<std::uint64_t>()) << strategy;
      EXPECT_EQ(m["executions"], whole["executions"]) << strategy;
    }
    if (strategy.starts_with("pb")) {
      EXPECT_EQ(m["coverage"]["bound"], 1);
    }
  }
}

// Samplers: the shards draw the unsharded seeds, so every bug is hit as often, and the
// first in the unsharded numbering is the same one, with the same schedule.
TEST_F(Shards, SamplerShardsDrawTheUnshardedSeeds) {
  const std::string args =
      // Races off: a race found would make its accesses scheduling points and restart the
      // search, renumbering its executions.
      "--races=off -s random --seed 4 -n 60 --keep-going --no-minimize -- " + kSuite +
      "/fail/bank_transfer";
  const json whole = run("WEFT_JOBS=1", args, 1, "whole.json");
  std::vector<std::string> files;
  std::uint64_t executions = 0;
  for (int i = 0; i < 3; ++i) {
    files.push_back("s" + std::to_string(i) + ".json");
    executions += run("WEFT_JOBS=1", "--shard " + std::to_string(i) + "/3 " + args, -1,
                      files.back())["executions"].get<std::uint64_t>();
  }
  EXPECT_EQ(executions, 60u);
  const json m = merge(files, 1);
  EXPECT_EQ(m["executions"], 60);
  ASSERT_EQ(m["bugs"].size(), whole["bugs"].size());
  for (std::size_t b = 0; b < whole["bugs"].size(); ++b) {
    EXPECT_EQ(m["bugs"][b]["hits"], whole["bugs"][b]["hits"]) << b;
    EXPECT_EQ(m["bugs"][b]["location"], whole["bugs"][b]["location"]) << b;
  }
  EXPECT_EQ(m["bugs"][0]["execution"], whole["bugs"][0]["execution"]);
  EXPECT_EQ(m["bugs"][0]["schedule"], whole["bugs"][0]["schedule"]);
}

// A worker killed while the others wait for it at their exchange: they leave the team,
// and weft says what happened (exit status 2) instead of hanging.
TEST_F(Shards, AWorkerKilledDoesNotHangTheOthers) {
  const Output r = sh("(" + kBin + "/weft run --jobs 2 -s dfs --no-state-cache -n 0 --json " + at("k.json") +
                      " -- " + kBin + "/bench_locked_counter 4 3 & w=$!; sleep 1; "
                      "c=$(grep -l \"^PPid:[[:space:]]*$w\$\" /proc/[0-9]*/status | head -1 | cut -d/ -f3); "
                      "kill -9 $c; wait $w; echo status=$?) 2>&1");
  EXPECT_NE(r.out.find("status=2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("was killed (signal 9)"), std::string::npos) << r.out;
}

// State caching goes on when the tree is split (--jobs is the number of cores by default,
// and dfs without the cache does not finish bank_transfer): each worker prunes its shared
// nodes alike and its own subtrees by what it explored there. The happens-before classes
// are not claimed (two workers may meet one class).
TEST_F(Shards, ASplitTreeStillPrunesByStateCaching) {
  const std::string pass = kSuite + "/pass/bank_transfer";
  const json one = run("", "--jobs 1 -s dfs -n 0 -- " + pass, 0, "one.json");
  const json two = run("", "--jobs 2 -s dfs -n 0 -- " + pass, 0, "two.json");
  ASSERT_TRUE(one["complete"].get<bool>() && two["complete"].get<bool>()) << two.dump();
  EXPECT_GT(one["coverage"]["classes"].get<int>(), 0);
  EXPECT_EQ(two["coverage"]["classes"], 0);
  EXPECT_NE(two["coverage"]["summary"].get<std::string>().find("pruned by state caching"),
            std::string::npos);
  // Measured: 507 and 615 (964 before the workers shared their caches); without the
  // cache, millions.
  EXPECT_LT(two["executions"].get<int>(), 4 * one["executions"].get<int>());
  const json again = run("", "--jobs 2 -s dfs -n 0 -- " + pass, 0, "again.json");
  EXPECT_EQ(again["executions"], two["executions"]);
  const json found = run("", "--jobs 2 -s dfs -n 2000 --races=report -- " + kSuite + "/fail/lazy_init", 1,
                         "bug.json");
  EXPECT_FALSE(found["bugs"].empty());
}

// Racy accesses found (--preempt-on racy) make the search start over on a larger space:
// a team's workers start over on the team's one search, passing work as before, not on a
// shard of it each. (They searched half of it: dfs on oracle program 306 with two workers
// ran 465 of the 1001 schedules, claimed complete and missed an exit status.)
TEST_F(Shards, ATeamStartsOverOnTheWholeSpace) {
  const std::string args = "-s dfs --no-state-cache -n 20000 --keep-going --races report --preempt-on racy "
                           "--no-preempt-in 'oracle_atomic_region*' -- " +
                           kBin + "/claims_oracle_program 306";
  const json one = run("", "--jobs 1 " + args, 1, "one.json");
  const json two = run("", "--jobs 2 " + args, 1, "two.json");
  ASSERT_TRUE(one["complete"].get<bool>()) << one.dump();
  ASSERT_FALSE(one["racy_points"].empty()) << "no restart: the test checks nothing";
  EXPECT_TRUE(two["complete"].get<bool>()) << two.dump();
  EXPECT_EQ(two["coverage"]["executions"], one["coverage"]["executions"]);
  EXPECT_EQ(two["bugs"].size(), one["bugs"].size()) << two.dump();
}

// --jobs N on one machine: a complete search runs each execution once; the same first
// bug is found on every run (samplers: in the one-worker numbering; systematic workers,
// which pass each other work: in the order of their rounds), and its schedule replays.
TEST_F(Shards, JobsSplitTheSearchAndFindTheSameBugEveryTime) {
  const std::string pass = kSuite + "/pass/lock_order_inversion";
  const json one = run("", "--jobs 1 -s dfs --no-state-cache -n 0 -- " + pass, 0, "one.json");
  const json two = run("", "--jobs 2 -s dfs --no-state-cache -n 0 -- " + pass, 0, "two.json");
  EXPECT_EQ(two["executions"], one["executions"]);
  EXPECT_TRUE(two["complete"].get<bool>());
  EXPECT_EQ(two["jobs"], 2);

  const std::string fail = kSuite + "/fail/lock_order_inversion";
  std::string first;
  for (int k = 0; k < 3; ++k) {
    const json j = run("", "--jobs 2 -s pos --seed 9 --no-minimize --schedule-out " + at("s.sched") +
                               " -- " + fail, 1, "bug.json");
    ASSERT_FALSE(j["bugs"].empty());
    const std::string got = j["bugs"][0]["schedule"].get<std::string>() + " @" +
                            std::to_string(j["bugs"][0]["execution"].get<int>());
    if (k == 0) first = got;
    EXPECT_EQ(got, first) << "run " << k;
  }
  const Output r = sh(kBin + "/weft replay " + at("s.sched") + " -- " + fail);
  EXPECT_EQ(r.status, 1) << r.out;
  // Systematic workers pass each other subtrees at exchanges planned from what each
  // published, never from timing: the same bug again, ordered by the rounds it ran in.
  const std::string stack = kSuite + "/fail/stack";
  for (const char* strategy : {"dfs", "dpor"}) {
    std::string first_found;
    for (int k = 0; k < 3; ++k) {
      const json j = run("", std::string("--jobs 2 -s ") + strategy + " --no-state-cache --no-minimize -n 0 --schedule-out " +
                                 at("t.sched") + " -- " + stack, 1, "team.json");
      ASSERT_FALSE(j["bugs"].empty()) << strategy;
      ASSERT_TRUE(j["bugs"][0].contains("order")) << j["bugs"][0].dump();
      const std::string got = j["bugs"][0]["schedule"].get<std::string>() + " @" +
                              std::to_string(j["bugs"][0]["order"].get<int>());
      if (k == 0) first_found = got;
      EXPECT_EQ(got, first_found) << strategy << ", run " << k;
    }
    const Output again = sh(kBin + "/weft replay " + at("t.sched") + " -- " + stack);
    EXPECT_EQ(again.status, 1) << strategy << ": " << again.out;
  }
  // The default is the machine's cores; WEFT_JOBS sets it.
  const json dflt = run("", "-s random -n 10 -- " + pass, 0, "d.json");
  EXPECT_EQ(dflt["jobs"].get<unsigned>(), std::max(1u, std::thread::hardware_concurrency()));
  const json env = run("WEFT_JOBS=1", "-s random -n 10 -- " + pass, 0, "e.json");
  EXPECT_FALSE(env.contains("jobs"));
}

// "found in execution N" in the text report, as a number.
std::uint64_t found_in(const std::string& text, std::uint64_t* of = nullptr) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("found in execution (\\d+)(?: of (\\d+))?"))) return 0;
  if (of != nullptr) *of = m[2].matched ? std::stoull(m[2]) : 0;
  return std::stoull(m[1]);
}

// One numbering: "found in execution N" is the same N in the text report, the JSON result
// and the HTML page, with one worker or several, and in weft merge's summary of shards.
// The workers of one search number the executions that ran, in the order that decides
// which bug is first (samplers: the unsharded search's; systematic workers sharing work:
// their rounds'), so that N is at most M, the whole search's executions ("of M").
TEST_F(Shards, FoundInExecutionIsOneNumberInTextJsonAndHtml) {
  // Its first bug comes late (random, seed 3: the 41st execution; a worker's 21st of 2),
  // races off: a race would come first.
  const std::string fail = kSuite + "/fail/producer_consumer";
  std::uint64_t alone = 0;  // random's number with one worker: the same with two
  for (const std::string options : {"--jobs 1 -s random --seed 3", "--jobs 2 -s random --seed 3",
                                    "--jobs 2 -s pos --seed 9", "--jobs 2 -s dfs --no-state-cache -n 0",
                                    "--jobs 2 -s dpor --no-minimize", "--jobs 2 -s pb --no-minimize"}) {
    SCOPED_TRACE(options);
    const Output o = sh("cd " + dir_.string() + " && " + kClean + "COLUMNS=1000 " + kBin + "/weft run --json " +
                        at("n.json") + " --html " + at("n.html") + " --races=off " + options + " -- " + fail);
    ASSERT_EQ(o.status, 1) << o.out;
    std::ifstream in(at("n.json"));
    const json j = json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded() || j["bugs"].empty()) << o.out;
    std::uint64_t of = 0;
    const std::uint64_t n = j["bugs"][0]["execution"].get<std::uint64_t>();
    EXPECT_EQ(found_in(o.out, &of), n) << o.out;
    EXPECT_LE(n, j["executions"].get<std::uint64_t>()) << o.out;
    EXPECT_EQ(of, j["executions"].get<std::uint64_t>()) << o.out;
    if (options.ends_with("random --seed 3")) {
      if (alone == 0) alone = n;
      EXPECT_EQ(n, alone) << o.out;
    }
    std::ifstream page(at("n.html"));
    const std::string html((std::istreambuf_iterator<char>(page)), {});
    EXPECT_NE(html.find("found in execution <span id=\"execution\">" + std::to_string(n) + "</span>"),
              std::string::npos);
  }
  // What a race leads to: the race's number and how many executions later its worker
  // found it, the same on every run (the other worker's executions past the race ran or
  // not as timing had it), and the same in the text.
  std::string leads;
  for (int k = 0; k < 3; ++k) {
    const Output o = sh("cd " + dir_.string() + " && " + kClean + "COLUMNS=1000 " + kBin +
                        "/weft run --json " + at("l.json") + " --jobs 2 -- " + kSuite + "/fail/bank_transfer");
    ASSERT_EQ(o.status, 1) << o.out;
    std::ifstream in(at("l.json"));
    const json j = json::parse(in, nullptr, false);
    ASSERT_TRUE(!j.is_discarded() && !j["bugs"].empty() && j["bugs"][0].contains("leads_to")) << o.out;
    const std::uint64_t n = j["bugs"][0]["leads_to"]["execution"].get<std::uint64_t>();
    EXPECT_GT(n, j["bugs"][0]["execution"].get<std::uint64_t>());
    EXPECT_NE(o.out.find("(execution " + std::to_string(n) + ","), std::string::npos) << o.out;
    if (k == 0) leads = std::to_string(n);
    EXPECT_EQ(std::to_string(n), leads) << o.out;
  }
  // Shards, merged: the whole search's number, also for a bug its shard found late.
  const std::string args = "--races=off -s random --seed 3 -n 60 --no-minimize -- " + fail;
  const json whole = run("WEFT_JOBS=1", args, 1, "whole.json");
  ASSERT_FALSE(whole["bugs"].empty());
  std::vector<std::string> files;
  std::string merge_command = "cd " + dir_.string() + " && COLUMNS=1000 " + kBin + "/weft merge --json " + at("m.json");
  for (int i = 0; i < 3; ++i) {
    files.push_back("p" + std::to_string(i) + ".json");
    const json part = run("WEFT_JOBS=1", "--shard " + std::to_string(i) + "/3 " + args, -1, files.back());
    for (const json& b : part["bugs"])
      EXPECT_EQ(b["execution"].get<std::uint64_t>(), i + 3 * (b["shard_execution"].get<std::uint64_t>() - 1) + 1)
          << "shard " << i << ": " << b.dump();
    merge_command += " " + at(files.back());
  }
  const Output merged = sh(merge_command);
  EXPECT_EQ(merged.status, 1) << merged.out;
  std::ifstream in(at("m.json"));
  const json m = json::parse(in, nullptr, false);
  ASSERT_FALSE(m.is_discarded() || m["bugs"].empty()) << merged.out;
  EXPECT_EQ(m["bugs"][0]["execution"], whole["bugs"][0]["execution"]);
  EXPECT_EQ(m["bugs"][0]["schedule"], whole["bugs"][0]["schedule"]);
  EXPECT_EQ(found_in(merged.out), m["bugs"][0]["execution"].get<std::uint64_t>()) << merged.out;
  EXPECT_GT(whole["bugs"][0]["execution"].get<std::uint64_t>(), 3u) << "a bug its shard found after its first execution";
}

// A worker given no work ran no execution of the (instrumented) program: it does not say
// that plain accesses were no scheduling points, which it cannot know; the search's
// statement is the worker's that ran.
TEST_F(Shards, AWorkerThatRanNothingStatesNoPoints) {
  const Output o = sh("cd " + dir_.string() + " && " + kClean + "COLUMNS=1000 " + kBin +
                      "/weft run --jobs 2 -s dpor -n 0 -- " + kSuite + "/pass/bank_transfer");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("worker 1: dpor: every happens-before class explored: 0 executions"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("synchronisation and atomics only"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("complete: every schedule explored (points: synchronisation, atomics and the accesses seen racing)"),
            std::string::npos) << o.out;
}

// A missing shard is named and voids the coverage claim; results of different searches
// are refused, naming the mismatch.
TEST_F(Shards, MergeNamesMissingShardsAndRefusesMismatches) {
  const std::string pass = kSuite + "/pass/lock_order_inversion";
  const std::string args = "-s dfs -n 0 -- " + pass;
  run("WEFT_JOBS=1", "--shard 0/3 " + args, 0, "a.json");
  run("WEFT_JOBS=1", "--shard 2/3 " + args, 0, "c.json");
  const json m = merge({"a.json", "c.json"}, 0);
  EXPECT_FALSE(m["complete"].get<bool>());
  EXPECT_EQ(m["shards"]["missing"], json::array({1}));
  EXPECT_NE(m["coverage"]["summary"].get<std::string>().find("shard 1 of 3 missing"), std::string::npos)
      << m["coverage"]["summary"];

  run("WEFT_JOBS=1", "--shard 1/3 -s pb:1 -n 0 -- " + pass, 0, "b_pb.json");
  run("WEFT_JOBS=1", "--shard 1/2 " + args, 0, "b_half.json");
  run("WEFT_JOBS=1", "--shard 1/3 -s dfs -n 5 -- " + kSuite + "/pass/bank_transfer", 0, "b_other.json");
  std::ofstream(at("junk.json")) << "not json";
  const struct {
    std::vector<std::string> files;
    const char* says;
  } bad[] = {
      {{"a.json", "b_pb.json"}, "differ in strategy"},
      {{"a.json", "b_half.json"}, "one of 2"},
      {{"a.json", "b_other.json"}, "differ in program"},
      {{"a.json", "a.json"}, "given twice"},
      {{"a.json", "junk.json"}, "is not JSON"},
      {{"a.json", "nope.json"}, "not found"},
  };
  for (const auto& b : bad) {
    std::string cmd = "cd " + dir_.string() + " && " + kBin + "/weft merge";
    for (const std::string& f : b.files) cmd += " " + f;
    const Output o = sh(cmd);
    EXPECT_EQ(o.status, 2) << cmd << "\n" << o.out;
    EXPECT_NE(o.out.find(b.says), std::string::npos) << cmd << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << "one line: " << o.out;
  }
}

// Bad shard input: a clear line and exit 2; an explicit --shard wins over the engines'
// variables and says so; Bazel's status file is touched.
TEST_F(Shards, BadShardInputIsRefusedAndConflictsAreNamed) {
  const std::string program = " -s random -n 4 -- " + kSuite + "/pass/lock_order_inversion";
  const struct {
    std::string env, args;
    const char* says;
  } bad[] = {
      {"", "--shard 3/2", "index must be below the count"},
      {"", "--shard 0/0", "index must be below the count"},
      {"", "--shard x/2", "expects I/N"},
      {"", "--shard 1", "expects I/N"},
      {"", "--jobs 0", "--jobs"},
      {"WEFT_JOBS=zero", "", "WEFT_JOBS='zero'"},
      {"TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=2 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2", "",
       "conflicting shards"},
      {"TEST_SHARD_INDEX=2 TEST_TOTAL_SHARDS=2", "", "TEST_SHARD_INDEX='2'"},
      {"JOB_COMPLETION_INDEX=1", "", "not the shard count"},
      {"", "--shards 4", "only the shard count"},
  };
  for (const auto& b : bad) {
    const std::string cmd = kClean + b.env + " " + kBin + "/weft run " + b.args + program;
    const Output o = sh(cmd);
    EXPECT_EQ(o.status, 2) << cmd << "\n" << o.out;
    EXPECT_NE(o.out.find(b.says), std::string::npos) << cmd << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << "one line: " << o.out;
  }
  const std::string status = at("bazel-status");
  const Output o = sh("cd " + dir_.string() + " && " + kClean +
                      "WEFT_JOBS=1 TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=2 TEST_SHARD_STATUS_FILE=" +
                      status + " " + kBin + "/weft run --shard 1/3 --json " + at("x.json") + program);
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("--shard 1/3 used; ignored: TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel) says 0/2"),
            std::string::npos) << o.out;
  EXPECT_TRUE(fs::exists(status));
  std::ifstream in(at("x.json"));
  const json j = json::parse(in);
  EXPECT_EQ(j["shard"]["index"], 1);
  EXPECT_EQ(j["shard"]["count"], 3);
  EXPECT_EQ(j["shard"]["source"], "--shard");
}

// WEFT_SHARD is WEFT_TEST's (weft/gtest.hpp) and weft run's word to its fork server: a
// caller's must not make weft run explore a part of a search it reports as whole.
TEST_F(Shards, TheCallersWeftShardDoesNotReachTheForkServer) {
  const std::string args = "-s dfs --no-state-cache -n 0 -- " + kSuite + "/pass/lock_order_inversion";
  const json whole = run("WEFT_JOBS=1", args, 0, "whole.json");
  const json leaked = run("WEFT_JOBS=1 WEFT_SHARD=1/3", args, 0, "leaked.json");
  EXPECT_EQ(leaked["executions"], whole["executions"]);
  EXPECT_FALSE(leaked.contains("shard")) << leaked.dump();
}

}  // namespace
