// weft run --checkpoint FILE: a search killed at any point (SIGKILL between two saves,
// SIGINT, which saves) and resumed with the same command, again and again, ends with the
// totals of the search run in one go: its executions and its happens-before classes. A
// checkpoint of another search, a damaged one, or a complete one is said in one line.
// Kill points are execution counts read from the checkpoint, never times: on a loaded
// machine the test is slower, never wrong.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/background_run.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;
using weft::test::BackgroundRun;
using weft::test::Output;
using weft::test::sh;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const std::string kProgram = kBin + "/cli_locked3";  // correct; a few hundred schedules
constexpr double kBound = 300;                       // seconds: any wait, on the busiest machine

// The counts in a checkpoint's header (0 when the file is not there or not readable).
struct Header {
  std::uint64_t executions = 0;
  std::uint64_t classes = 0;
  bool complete = false;
};

Header header_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Header h;
  for (std::string line; std::getline(in, line) && !line.starts_with("state ");) {
    std::istringstream words(line);
    std::string key;
    std::uint64_t v = 0;
    words >> key >> v;
    if (key == "executions") h.executions = v;
    if (key == "classes") h.classes = v;
    if (key == "complete") h.complete = v == 1;
  }
  return h;
}

class Checkpoint : public weft::test::TempDirTest {
 protected:
  int kills_ = 0;
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  std::string weft() const { return weft::test::kNoSharding + kBin + "/weft"; }

  // One run to the end, in one go, without a checkpoint: the totals to reach.
  json uninterrupted(const std::string& strategy) {
    const Output o = sh("cd " + dir_.string() + " && " + weft() + " run --jobs 1 --json - -n 0 -s " +
                        strategy + " -- " + kProgram, "2>/dev/null");
    EXPECT_EQ(o.status, 0) << o.out;
    return json::parse(o.out, nullptr, false);
  }

  std::vector<std::string> argv(const std::string& strategy, const std::string& file) const {
    return {kBin + "/weft", "run", "--json", at("result.json"), "-n", "0", "-s", strategy,
            "--checkpoint", file, "--checkpoint-every", strategy == "dpor" ? "0.01" : "0.05",
            "--", kProgram};
  }

  // The same command, killed once the checkpoint shows `k` executions (or left to end).
  // Whether the kill comes before the end depends on the machine's speed; the totals
  // compared at the end do not.
  void run_until(const std::string& strategy, const std::string& file, std::uint64_t k, int sig) {
    BackgroundRun run(argv(strategy, file), {"WEFT_JOBS=1"}, at("out.txt"));
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(kBound);
    while (header_of(file).executions < k && run.wait_exit(0) < 0 &&
           std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_LT(std::chrono::steady_clock::now(), end) << run.output();
    if (run.wait_exit(0) < 0) {
      run.send(sig, /*its_group=*/sig == SIGINT);
      ++kills_;
    }
    const int status = run.wait_exit(kBound);
    EXPECT_TRUE(status == 0 || status == 128 + sig) << status << "\n" << run.output();
    // Nothing of the run is left to write the file after it.
    EXPECT_TRUE(BackgroundRun::poll([&] { return run.processes().empty(); }, kBound));
  }

  // Killed at 5 points (a fixed draw), by SIGKILL and SIGINT in turn, resumed each time,
  // then run to its end: the totals of the run in one go.
  void resume_to_the_end(const std::string& strategy) {
    const json whole = uninterrupted(strategy);
    ASSERT_FALSE(whole.is_discarded());
    const std::uint64_t total = whole["executions"].get<std::uint64_t>();
    const std::uint64_t classes = whole["coverage"]["classes"].get<std::uint64_t>();
    ASSERT_TRUE(whole["complete"].get<bool>()) << whole.dump();
    ASSERT_GE(total, 20u) << whole.dump();
    std::mt19937_64 draw(28);
    std::vector<std::uint64_t> points;
    for (int i = 0; i < 5; ++i) points.push_back(1 + draw() % (total - 2));
    std::sort(points.begin(), points.end());
    const std::string file = at(strategy + ".weft-checkpoint");
    for (int i = 0; i < 5; ++i) {
      SCOPED_TRACE(strategy + " kill " + std::to_string(i) + " at " + std::to_string(points[i]));
      run_until(strategy, file, points[i], i % 2 == 0 ? SIGKILL : SIGINT);
    }
    run_until(strategy, file, ~std::uint64_t{0}, SIGKILL);  // to its end
    std::cout << "[          ] " << strategy << ": " << kills_ << " of 5 runs killed before the end\n";
    const Header end = header_of(file);
    EXPECT_TRUE(end.complete);
    EXPECT_EQ(end.executions, total);
    EXPECT_EQ(end.classes, classes);
    // Run again: the search is complete, said rather than searched again.
    const Output again = sh(weft() + " run -n 0 -s " + strategy + " --checkpoint " + file + " -- " + kProgram);
    EXPECT_EQ(again.status, 0) << again.out;
    EXPECT_TRUE(again.has("is complete (" + std::to_string(total) + " executions")) << again.out;
  }
};

TEST_F(Checkpoint, DporKilledFiveTimesEndsWithTheUninterruptedTotals) { resume_to_the_end("dpor"); }

TEST_F(Checkpoint, PbKilledFiveTimesEndsWithTheUninterruptedTotals) { resume_to_the_end("pb"); }

TEST_F(Checkpoint, AResumedRunCountsFromTheSavedExecutions) {
  const std::string file = at("c");
  Output o = sh(weft() + " run --jobs 1 -n 30 -s dpor --checkpoint " + file + " -- " + kProgram);
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(header_of(file).executions, 30u);
  // The budget counts every run's executions: 30 more.
  o = sh(weft() + " run --json - -n 60 -s dpor --checkpoint " + file + " -- " + kProgram, "2>/dev/null");
  ASSERT_EQ(o.status, 0) << o.out;
  const json j = json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out;
  EXPECT_EQ(j["executions"], 60);
  EXPECT_EQ(header_of(file).executions, 60u);
}

// The default portfolio, killed twice (SIGKILL between two saves, then SIGINT) and resumed
// each time: every member goes on from its own count and state, and the run ends with the
// coverage of the run in one go (each member's count, pb's tree).
TEST_F(Checkpoint, ThePortfolioResumesEveryMember) {
  const std::string budget = "200";
  auto command = [&](const std::string& file) {
    std::vector<std::string> a = {kBin + "/weft", "run", "--json", at("result.json"), "-n", budget};
    if (!file.empty()) a.insert(a.end(), {"--checkpoint", file, "--checkpoint-every", "0.01"});
    a.insert(a.end(), {"--", kProgram});
    return a;
  };
  auto summary = [&] {
    std::ifstream in(at("result.json"));
    const json j = json::parse(in, nullptr, false);
    return j.is_discarded() ? std::string("no result") : j["coverage"]["summary"].get<std::string>();
  };
  {
    BackgroundRun whole(command(""), {"WEFT_JOBS=1"}, at("out.txt"));
    ASSERT_EQ(whole.wait_exit(kBound), 0) << whole.output();
  }
  const std::string want = summary();
  ASSERT_NE(want.find("200 executions in turn"), std::string::npos) << want;
  const std::string file = at("portfolio.weft-checkpoint");
  for (const auto& [k, sig] : {std::pair{std::uint64_t{60}, SIGKILL}, std::pair{std::uint64_t{130}, SIGINT},
                               std::pair{~std::uint64_t{0}, SIGKILL}}) {
    SCOPED_TRACE("kill at " + std::to_string(k));
    BackgroundRun run(command(file), {}, at("out.txt"));
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(kBound);
    while (header_of(file).executions < k && run.wait_exit(0) < 0 && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (run.wait_exit(0) < 0) run.send(sig, /*its_group=*/sig == SIGINT);
    const int status = run.wait_exit(kBound);
    EXPECT_TRUE(status == 0 || status == 128 + sig) << status << "\n" << run.output();
    EXPECT_TRUE(BackgroundRun::poll([&] { return run.processes().empty(); }, kBound));
  }
  EXPECT_EQ(header_of(file).executions, 200u);
  EXPECT_EQ(summary(), want);
}

TEST_F(Checkpoint, AnotherSearchsCheckpointIsRefusedNamingWhatDiffers) {
  const std::string file = at("c");
  ASSERT_EQ(sh(weft() + " run -n 5 -s dpor --checkpoint " + file + " -- " + kProgram).status, 0);
  const std::string before = sh("cat " + file).out;
  struct Case {
    std::string args, says;
  } cases[] = {
      {"-s pb", "was saved with --strategy dpor, this run has --strategy pb"},
      {"-s dpor --seed 3", "was saved with --seed 0, this run has --seed 3"},
      {"-s dpor --steps 500", "was saved with --steps 100000, this run has --steps 500"},
      {"-s dpor --no-fair", "was saved with --no-fair no, this run has --no-fair yes"},
      {"-s dpor --shard 1/2", "was saved with --shard 0/1, this run has --shard 1/2"},
  };
  for (const Case& c : cases) {
    const Output o = sh(weft() + " run -n 5 " + c.args + " --checkpoint " + file + " -- " + kProgram);
    EXPECT_EQ(o.status, 2) << c.args << "\n" << o.out;
    EXPECT_TRUE(o.has(c.says)) << c.args << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << o.out;
  }
  Output o = sh(weft() + " run -n 5 -s dpor --checkpoint " + file + " -- " + kProgram + " extra");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("was saved with arguments '', this run has arguments extra")) << o.out;
  o = sh(weft() + " run -n 5 -s dpor --checkpoint " + file + " -- " + kBin + "/cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("was saved for another program")) << o.out;
  EXPECT_EQ(sh("cat " + file).out, before) << "a refused checkpoint is left as it was";
}

TEST_F(Checkpoint, ADamagedFileIsRefusedInOneLine) {
  const std::string file = at("c");
  ASSERT_EQ(sh(weft() + " run -n 5 -s pb --checkpoint " + file + " -- " + kProgram).status, 0);
  std::ifstream in(file, std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto refused = [&](const std::string& bytes, const std::string& says) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    const Output o = sh(weft() + " run -n 5 -s pb --checkpoint " + file + " -- " + kProgram);
    EXPECT_EQ(o.status, 2) << o.out;
    EXPECT_TRUE(o.has(says)) << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << o.out;
  };
  refused("", "is refused: it is not a weft checkpoint");
  refused("hello\n", "is refused: it is not a weft checkpoint");
  refused("weft-checkpoint 9\n", "is refused: it is of format version '9'");
  // A control byte in the quoted version keeps the refusal one line (found by make fuzz).
  refused("weft-checkpoint 1\r\n", "is refused: it is of format version '1?'");
  for (std::size_t cut : {good.size() / 2, good.size() - 1, std::size_t{30}})
    refused(good.substr(0, cut), "is refused: it is damaged or truncated");
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x40;
  refused(flipped, "is refused: it is damaged or truncated");
  Output o = sh(weft() + " run -n 5 -s pb --checkpoint " + dir_.string() + " -- " + kProgram);
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("--checkpoint " + dir_.string() + ": is a directory")) << o.out;
}

TEST_F(Checkpoint, WhatCannotBeSavedIsSaidInOneLine) {
  const std::string file = at("c");
  struct Case {
    std::string args, says;
  } cases[] = {
      {"-s portfolio:pctvb+random", "--checkpoint cannot save strategy 'portfolio:pctvb+random'; it saves dfs, pb"},
      {"-s pctvb", "--checkpoint cannot save strategy 'pctvb'"},
      {"-s dpor --jobs 2", "--checkpoint runs one worker: --jobs 2 cannot be saved yet"},
      {"-s dpor --checkpoint-every 0", "--checkpoint-every"},
      {"-s dpor --checkpoint-every nan", "--checkpoint-every"},
      {"-s dpor --checkpoint-every -1", "--checkpoint-every"},
  };
  for (const Case& c : cases) {
    const Output o = sh(weft() + " run -n 5 " + c.args + " --checkpoint " + file + " -- " + kProgram);
    EXPECT_EQ(o.status, 2) << c.args << "\n" << o.out;
    EXPECT_TRUE(o.has(c.says)) << c.args << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << c.args << "\n" << o.out;
    EXPECT_FALSE(fs::exists(file)) << c.args;
  }
}

// A sampler's checkpoint is its count: the resumed run draws the executions that follow.
TEST_F(Checkpoint, ASamplerGoesOnWithItsCount) {
  const std::string file = at("c");
  ASSERT_EQ(sh(weft() + " run --jobs 1 -n 20 -s random --checkpoint " + file + " -- " + kProgram).status, 0);
  const Output o = sh(weft() + " run --json - -n 50 -s random --checkpoint " + file + " -- " + kProgram,
                      "2>/dev/null");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(json::parse(o.out, nullptr, false)["executions"], 50);
  EXPECT_EQ(header_of(file).executions, 50u);
  EXPECT_FALSE(header_of(file).complete) << "a sampler never completes";
}

}  // namespace
