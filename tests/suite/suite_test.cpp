// The suite of real programs (programs/), end to end: each program folder's weft.json says
// how to run it (strategy, budget, seed, args, stdin) and, under fail/, which kind of bug
// weft must report. For fail/: `weft run` exits 1 with that kind, and `weft replay` of the
// schedule it wrote reproduces the same bug. For pass/: `weft run` exits 0, no bug.
//
// weft.json's fields: suite_cases.hpp.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/shell.hpp"
#include "suite_cases.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kBin = WEFT_BIN_DIR;                // weft
const fs::path kSources = WEFT_SUITE_SOURCE_DIR;      // programs/
const fs::path kPrograms = WEFT_SUITE_BINARY_DIR;     // <build>/programs/<verdict>/<name>

namespace suite = weft::suite;
using suite::Case;
using suite::quote;

std::vector<Case> load_cases() {
  std::vector<Case> cases = suite::load_cases(kSources, "fail");
  for (Case& c : suite::load_cases(kSources, "pass")) cases.push_back(std::move(c));
  return cases;
}

struct Output : weft::test::Output {
  std::string err;
};

// Runs a shell command; stdout and stderr apart (weft's JSON goes to stdout).
Output sh(const std::string& command, const fs::path& err_file) {
  Output o;
  static_cast<weft::test::Output&>(o) = weft::test::sh(command, "2>" + quote(err_file.string()));
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  o.err = ss.str();
  return o;
}

class Suite : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("weft-suite-" + std::to_string(getpid()) + "-" + GetParam().verdict + "-" +
            GetParam().name + "-" + GetParam().run);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string program_command() const {
    return suite::program_command(GetParam(), kSources, kPrograms);
  }

  // Runs weft with `args` and returns its JSON result, checking the exit status.
  json weft(const std::string& args, int expect_status, std::string* context) {
    Output o = sh("cd " + quote(dir_.string()) + " && " + kBin + "/weft " + args + " " +
                      program_command(),
                  dir_ / "stderr.txt");
    *context = "weft " + args + " " + program_command() + "\nstatus " + std::to_string(o.status) +
               "\nstdout:\n" + o.out + "\nstderr:\n" + o.err;
    if (expect_status >= 0) EXPECT_EQ(o.status, expect_status) << *context;
    json j = json::parse(o.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << *context;
    return j.is_discarded() ? json::object() : j;
  }

  fs::path dir_;
};

TEST_P(Suite, VerdictHolds) {
  const Case& c = GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const json& cfg = c.config;
  if (cfg.contains("known_failure"))
    GTEST_SKIP() << "known weft failure: " << cfg["known_failure"].get<std::string>();
  ASSERT_TRUE(fs::exists(kPrograms / c.verdict / c.name)) << "not built: " << c.name;

  const std::string strategy = cfg.value("strategy", "random");
  // The verdict is about finding the bug; minimising it has tests of its own (SuiteMinimize,
  // cli_test) and would add up to its budget to every sampled find.
  std::string options = "--no-minimize --strategy " + quote(strategy) +
                        " --executions " + std::to_string(cfg.value("executions", 1000)) +
                        " --seed " + std::to_string(cfg.value("seed", 1));
  if (cfg.contains("steps")) options += " --steps " + std::to_string(cfg["steps"].get<long>());
  if (cfg.contains("hang_timeout"))
    options += " --hang-timeout " + std::to_string(cfg["hang_timeout"].get<double>());
  // Replays need the same race mode (it decides where an execution stops).
  const std::string races = cfg.contains("races") ? " --races=" + cfg["races"].get<std::string>() : "";
  options += races;
  const std::string schedule = (dir_ / "found.weft-schedule").string();

  std::string context;
  if (c.verdict == "pass") {
    const json r = weft("run --json - " + options, 0, &context);
    EXPECT_FALSE(r.contains("error")) << context;
    ASSERT_TRUE(r.contains("bugs")) << context;
    EXPECT_TRUE(r["bugs"].empty()) << context;
    if (cfg.value("complete", false)) EXPECT_TRUE(r.value("complete", false)) << context;
    std::cout << "[suite] pass/" << c.name << (c.run.empty() ? "" : "/" + c.run) << ": "
              << strategy << ", " << r.value("executions", 0) << " executions, no bug"
              << (r.value("complete", false) ? " (complete)" : "") << ", "
              << r.value("elapsed_s", 0.0) << " s\n";
    return;
  }

  ASSERT_EQ(c.verdict, "fail");
  ASSERT_TRUE(cfg.contains("expect")) << "fail/" << c.name << "/weft.json needs \"expect\"";
  const std::string kind = cfg["expect"].get<std::string>();
  const json r = weft("run --json - --schedule-out " + quote(schedule) + " " + options, 1, &context);
  ASSERT_TRUE(r.contains("bugs") && !r["bugs"].empty()) << context;
  const json& bug = r["bugs"][0];
  EXPECT_EQ(bug.value("kind", ""), kind) << context;
  if (cfg.value("races", "") == "report")
    EXPECT_FALSE(r.value("races", json::array()).empty()) << "the race is reported\n" << context;
  if (cfg.contains("race_lines")) {
    // Both accesses of the race, by source line.
    ASSERT_TRUE(bug.contains("race")) << context;
    std::vector<int> lines, want = cfg["race_lines"].get<std::vector<int>>();
    for (const json& a : bug["race"]["accesses"]) lines.push_back(a["location"].value("line", 0));
    std::sort(lines.begin(), lines.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(lines, want) << context;
  }
  std::cout << "[suite] fail/" << c.name << (c.run.empty() ? "" : "/" + c.run) << ": "
            << strategy << " found " << bug.value("kind", "") << " in execution "
            << bug.value("execution", 0) << " (" << bug.value("preemptions", 0)
            << " preemptions): " << bug.value("message", "") << "\n";

  ASSERT_TRUE(fs::exists(schedule)) << context;
  std::string replay_context;
  const json again = weft("replay --json -" + races + " " + quote(schedule), 1, &replay_context);
  ASSERT_TRUE(again.contains("bugs") && !again["bugs"].empty()) << replay_context;
  EXPECT_EQ(again["bugs"][0].value("kind", ""), bug.value("kind", "")) << replay_context;
  EXPECT_EQ(again["bugs"][0].value("message", ""), bug.value("message", "")) << replay_context;
}

// Issue #6 on real programs: every failing program's bug is found by dpor, bf:mdpor,pb and
// bf:rand within kSystematicBudget executions (with the program's first run's arguments,
// input and race mode), and every passing program completes dpor with no report within
// that budget, unless its weft.json says why its space is larger ("dpor_incomplete").
constexpr int kSystematicBudget = 2500;

class SuiteSystematic : public Suite {};

TEST_P(SuiteSystematic, DporAndBestFirstHoldTheVerdict) {
  const Case& c = GetParam();
  ASSERT_TRUE(c.error.empty()) << c.error;
  const json& cfg = c.config;
  if (cfg.contains("known_failure"))
    GTEST_SKIP() << "known weft failure: " << cfg["known_failure"].get<std::string>();
  // A space known to be larger than the budget: a short run checks only for false reports.
  const bool larger = cfg.contains("dpor_incomplete");
  const int budget = larger && c.verdict == "pass" ? kSystematicBudget / 5 : kSystematicBudget;
  std::string options = " --executions " + std::to_string(budget);
  if (cfg.contains("steps")) options += " --steps " + std::to_string(cfg["steps"].get<long>());
  if (cfg.contains("races")) options += " --races=" + cfg["races"].get<std::string>();
  std::string context;
  if (c.verdict == "pass") {
    const json r = weft("run --json - -s dpor" + options, 0, &context);
    ASSERT_TRUE(r.contains("bugs")) << context;
    EXPECT_TRUE(r["bugs"].empty()) << context;
    if (!larger) EXPECT_TRUE(r["coverage"].value("complete", false)) << context;
    std::cout << "[suite] pass/" << c.name << ": dpor, " << r.value("executions", 0)
              << " executions, " << r["coverage"].value("summary", "") << "\n";
    return;
  }
  // A bug deeper than the systematic orders reach within the budget (dpor_incomplete):
  // randomized best-first search still finds it.
  std::vector<const char*> strategies = {"dpor", "bf:mdpor,pb", "bf:rand --seed 1"};
  if (larger) strategies = {"bf:rand --seed 1"};
  for (const char* strategy : strategies) {
    const json r = weft(std::string("run --json - --schedule-out /dev/null -s ") + strategy + options,
                        1, &context);
    ASSERT_TRUE(r.contains("bugs") && !r["bugs"].empty()) << context;
    EXPECT_EQ(r["bugs"][0].value("kind", ""), cfg.value("expect", "")) << context;
    std::cout << "[suite] fail/" << c.name << ": " << strategy << " found "
              << r["bugs"][0].value("kind", "") << " in execution "
              << r["bugs"][0].value("execution", 0) << "\n";
  }
}

// Issue #8's minimisation: a bug random finds is minimised to the preemptions pb needs
// for the same bug (when pb finds it within the budget).
class SuiteMinimize : public Suite {};

TEST_P(SuiteMinimize, RandomFindsMinimiseToThePreemptionsPbNeeds) {
  const Case& c = GetParam();
  if (c.config.contains("known_failure")) GTEST_SKIP();
  std::string options = " --executions 1000 --time 15 --seed 1";
  if (c.config.contains("steps")) options += " --steps " + std::to_string(c.config["steps"].get<long>());
  if (c.config.contains("races")) options += " --races=" + c.config["races"].get<std::string>();
  std::string context;
  const json pb = weft("run --json - --schedule-out /dev/null -s pb" + options, -1, &context);
  const json random = weft("run --json - --schedule-out /dev/null -s random" + options, -1, &context);
  if (!random.value("bugs", json::array()).empty() && pb.value("bugs", json::array()).empty()) {
    // pb runs out of budget (the dining philosophers): simplifying the found schedule still
    // removes preemptions it did not need.
    const json& b = random["bugs"][0];
    ASSERT_TRUE(b.contains("minimized")) << context;
    const int found = b["minimized"].value("found_preemptions", 0);
    if (found > 1) EXPECT_LT(b.value("preemptions", found), found) << context;
    std::cout << "[suite] fail/" << c.name << ": random's find minimised to "
              << b.value("preemptions", 0) << " preemptions (pb: none found), first found with "
              << found << "\n";
    return;
  }
  if (pb.value("bugs", json::array()).empty() || random.value("bugs", json::array()).empty())
    GTEST_SKIP() << "not found by both within the budget";
  const json& a = pb["bugs"][0];
  const json& b = random["bugs"][0];
  if (a.value("kind", "") != b.value("kind", "") || a["location"] != b["location"])
    GTEST_SKIP() << "pb and random found different bugs first";
  EXPECT_EQ(b.value("preemptions", -1), a.value("preemptions", -2)) << context;
  std::cout << "[suite] fail/" << c.name << ": random's find minimised to "
            << b.value("preemptions", 0) << " preemptions (pb: " << a.value("preemptions", 0)
            << ")" << (b.contains("minimized") ? ", first found with " +
                           std::to_string(b["minimized"].value("found_preemptions", 0)) : std::string())
            << "\n";
}

// One case per program folder (its first run).
std::vector<Case> first_runs(const std::string& verdict = "") {
  std::vector<Case> out;
  for (Case& c : load_cases()) {
    if (!verdict.empty() && c.verdict != verdict) continue;
    bool seen = false;
    for (const Case& o : out) seen |= o.verdict == c.verdict && o.name == c.name;
    if (!seen) out.push_back(std::move(c));
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.verdict + "_" + info.param.name;
  if (!info.param.run.empty()) n += "_" + info.param.run;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Programs, Suite, ::testing::ValuesIn(load_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Systematic, SuiteSystematic, ::testing::ValuesIn(first_runs()),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Minimize, SuiteMinimize, ::testing::ValuesIn(first_runs("fail")),
                         case_name);

}  // namespace
