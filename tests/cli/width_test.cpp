// Reports for any terminal (issue #26 item 4): the text report of every failing program,
// the suite's (programs/fail) and tests/cli/programs', fits COLUMNS = 80 and 120; the help
// of every command and `weft strategies` fit 100 columns whatever the terminal.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "suite/suite_cases.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const fs::path kSources = WEFT_SUITE_SOURCE_DIR;
const fs::path kPrograms = WEFT_SUITE_BINARY_DIR;

using weft::suite::quote;
using weft::test::Output;
using weft::test::sh;

// The lines of `text` longer than `width` columns, each with its length ("" when none).
std::string too_long(const std::string& text, std::size_t width) {
  std::istringstream in(text);
  std::string found;
  for (std::string line; std::getline(in, line);)
    if (line.size() > width) found += std::to_string(line.size()) + ": " + line + "\n";
  return found;
}

class Width : public weft::test::TempDirTest {
 protected:
  // `weft ARGS` in the test's directory with COLUMNS set, stdout alone (not a terminal).
  Output weft(const std::string& args, std::size_t columns) {
    return sh("cd " + quote(dir_.string()) + " && COLUMNS=" + std::to_string(columns) + " " + kBin +
                  "/weft " + args,
              "2>/dev/null");
  }
  // The report of a run that finds a bug, at 80 and 120 columns.
  void expect_reports_fit(const std::string& args) {
    for (std::size_t columns : {80u, 120u}) {
      SCOPED_TRACE(args + " at " + std::to_string(columns) + " columns");
      const Output o = weft(args, columns);
      EXPECT_EQ(o.status, 1) << o.out;
      EXPECT_NE(o.out.find("bug"), std::string::npos) << o.out;
      EXPECT_EQ(too_long(o.out, columns), "") << o.out;
    }
  }
};

TEST_F(Width, TheReportsOfTheCliProgramsFit) {
  const std::vector<std::string> programs = {
      "-s dfs -- " + kBin + "/cli_deadlock",
      "-s dfs -- " + kBin + "/cli_lost_wakeup",
      "-s dfs -- " + kBin + "/cli_lost_stop",
      "-s dfs --preempt-on all -- " + kBin + "/cli_race_folded",
      "-s dfs -- " + kBin + "/cli_null_deref",
      "-s dfs -- " + kBin + "/cli_lost_update_exit",
      "-s dfs -- " + kBin + "/cli_named_heap",
      "-s dfs -- " + kBin + "/cli_race_leads_to bug",
      "-s random --steps 3000 -- " + kBin + "/cli_two_spinners",
      "--check-output -s dfs -- " + kBin + "/cli_missing_barrier bug",
      "-s dfs -- " + kBin + "/cli_crash_address garbage",
      "-s dpor -- " + kBin + "/cli_deleted_queue",
      "-s dfs -- " + kBin + "/cli_bad_free double",
      "-s dfs -- " + kBin + "/cli_order_behind_deadlock",
      "-s dfs -- " + kBin + "/cli_api_misuse lock_destroyed",
  };
  for (const std::string& p : programs) expect_reports_fit("run --jobs 1 " + p);
  // Several workers: the merged run and coverage lines, a line per worker.
  expect_reports_fit("run --jobs 2 -s dfs -- " + kBin + "/cli_lost_stop");
}

// weft merge's summary of shards, each shard's coverage on a line of its own.
TEST_F(Width, TheMergedSummaryFits) {
  for (const std::string shard : {"0", "1"})
    weft("run --jobs 1 -s dfs --shard " + shard + "/2 --json s" + shard + ".json -- " + kBin +
             "/cli_lost_wakeup",
         80);
  for (std::size_t columns : {80u, 120u}) {
    const Output o = weft("merge s0.json s1.json", columns);
    EXPECT_NE(o.out.find("\n  shard 1: "), std::string::npos) << o.out;
    EXPECT_EQ(too_long(o.out, columns), "") << o.out;
  }
}

// Each failing suite program as its weft.json runs it; its schedule replayed at each width.
TEST_F(Width, TheReportsOfTheSuiteProgramsFit) {
  for (const weft::suite::Case& c : weft::suite::load_cases(kSources, "fail")) {
    if (!c.error.empty() || c.config.contains("known_failure")) continue;
    SCOPED_TRACE(c.name + (c.run.empty() ? "" : "/" + c.run));
    const nlohmann::json& cfg = c.config;
    const std::string races = cfg.contains("races") ? " --races=" + cfg["races"].get<std::string>() : "";
    std::string options = "--no-minimize --jobs 1 --strategy " + quote(cfg.value("strategy", "random")) +
                          " --executions " + std::to_string(cfg.value("executions", 1000)) +
                          " --seed " + std::to_string(cfg.value("seed", 1)) + races;
    if (cfg.contains("steps")) options += " --steps " + std::to_string(cfg["steps"].get<long>());
    const std::string command = weft::suite::program_command(c, kSources, kPrograms);
    const Output found = weft("run " + options + " --schedule-out found.weft-schedule " + command, 80);
    ASSERT_EQ(found.status, 1) << found.out;
    EXPECT_EQ(too_long(found.out, 80), "") << found.out;
    for (std::size_t columns : {80u, 120u}) {
      const Output o = weft("replay found.weft-schedule" + races + " " + command, columns);
      EXPECT_EQ(o.status, 1) << o.out;
      EXPECT_EQ(too_long(o.out, columns), "") << columns << " columns:\n" << o.out;
    }
  }
}

TEST_F(Width, HelpAndTheStrategiesFitAHundredColumns) {
  for (std::size_t columns : {80u, 100u, 300u})
    for (const std::string args : {"--help", "run --help", "replay --help", "minimize --help",
                                   "merge --help", "strategies --help", "strategies"}) {
      SCOPED_TRACE(args + " at " + std::to_string(columns) + " columns");
      const Output o = weft(args, columns);
      EXPECT_EQ(o.status, 0) << o.out;
      EXPECT_FALSE(o.out.empty());
      EXPECT_EQ(too_long(o.out, 100), "") << o.out;
    }
  // Every strategy still listed, a line starting with its name.
  const Output list = weft("strategies", 80);
  for (const std::string name : {"random", "pct[:<d>]", "dfs", "dpor", "bf[:<p>[,<p>...]]", "portfolio[:<s>+<s>+...]"})
    EXPECT_NE(("\n" + list.out).find("\n" + name + " "), std::string::npos) << name << "\n" << list.out;
}

}  // namespace
