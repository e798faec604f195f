// What signals do to a weft run, end to end (issue 27): SIGINT (Ctrl-C, to weft's whole
// process group) and SIGTERM end the search in order, with its partial result, the --json
// file, exit 130 or 143 and no temporary directory left; a second signal stops at once,
// still cleaning up; kill -9 leaves no fork server and no execution running, and the next
// run removes the directory the killed one could not.
//
// Each run has a TMPDIR of its own (weft makes its weft-XXXXXX there) and a marker in its
// environment that tells its processes in /proc. Signals are sent once executions run,
// and every wait polls for what it waits for, within generous bounds: a loaded machine
// makes a test slower, never wrong.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/background_run.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using weft::test::BackgroundRun;

namespace {

const std::string kBin = WEFT_BIN_DIR;
constexpr double kBound = 120;  // seconds: any wait below, on the busiest machine

// Correct, and so long a search (3 threads, 15,000 lock calls) that no budget-less
// strategy ends it while a test runs.
const std::string kProgram = kBin + "/cli_long_locked";

class Signals : public weft::test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directories(tmp());
  }
  fs::path tmp() const { return dir_ / "tmp"; }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }

  // weft run ARGS --json result.json -- kProgram, in the background, TMPDIR its own.
  std::unique_ptr<BackgroundRun> start(const std::vector<std::string>& args,
                                       bool open_stdin = false) {
    std::vector<std::string> argv = {kBin + "/weft", "run", "--json", at("result.json")};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--", kProgram});
    return std::make_unique<BackgroundRun>(
        argv, std::vector<std::string>{"TMPDIR=" + tmp().string(), "WEFT_JOBS=1"}, at("out.txt"),
        open_stdin);
  }

  // The weft-XXXXXX directories in the run's TMPDIR.
  std::vector<std::string> run_dirs() const {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(tmp()))
      if (e.path().filename().string().starts_with("weft-")) found.push_back(e.path().string());
    return found;
  }

  // Once executions run: `sig` (to the group, as Ctrl-C), then the partial result.
  void interrupt(const std::vector<std::string>& args, int sig, bool group) {
    auto run = start(args);
    ASSERT_TRUE(BackgroundRun::poll([&] { return run->executions_running() > 0; }, kBound))
        << "no execution started\n" << run->output();
    EXPECT_EQ(run_dirs().size(), 1u) << "weft keeps its directory in TMPDIR";
    run->send(sig, group);
    const int status = run->wait_exit(kBound);
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_EQ(status, 128 + sig) << run->output();
    EXPECT_NE(run->output().find("interrupted after "), std::string::npos) << run->output();
    EXPECT_NE(run->output().find(" (" + name + "): the search stopped early"),
              std::string::npos) << run->output();
    std::ifstream in(at("result.json"));
    const json j = json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "no --json result\n" << run->output();
    EXPECT_EQ(j.value("interrupted", ""), name) << j.dump();
    EXPECT_FALSE(j["complete"].get<bool>()) << j.dump();
    EXPECT_GE(j["executions"].get<std::uint64_t>(), 1u) << j.dump();
    EXPECT_TRUE(j["bugs"].empty()) << j.dump();
    EXPECT_TRUE(run_dirs().empty()) << "the temporary directory is removed";
    EXPECT_TRUE(BackgroundRun::poll([&] { return run->processes().empty(); }, kBound))
        << "a process of the run outlived it";
  }
};

TEST_F(Signals, CtrlCToTheGroupEndsOneWorkersSearchWithItsResult) {
  interrupt({"-s", "dfs", "-n", "0", "--jobs", "1"}, SIGINT, /*group=*/true);
}

TEST_F(Signals, SigtermEndsOneWorkersSearchWithItsResult) {
  interrupt({"-s", "random", "-n", "0", "--jobs", "1"}, SIGTERM, /*group=*/false);
}

// Two workers sharing one systematic search (they wait for each other at exchanges).
TEST_F(Signals, CtrlCEndsTwoWorkersSharedSearchWithTheMergedResult) {
  interrupt({"-s", "dfs", "-n", "0", "--jobs", "2"}, SIGINT, /*group=*/true);
}

TEST_F(Signals, SigtermEndsTwoSamplingWorkersWithTheMergedResult) {
  interrupt({"-s", "random", "-n", "0", "--jobs", "2"}, SIGTERM, /*group=*/false);
}

// The fork servers stopped (SIGSTOP) cannot end their search: after the first Ctrl-C, the
// second stops the run at once.
TEST_F(Signals, ASecondCtrlCStopsAtOnceAndStillCleansUp) {
  auto run = start({"-s", "random", "-n", "0", "--jobs", "2"});
  ASSERT_TRUE(BackgroundRun::poll([&] { return run->executions_running() > 0; }, kBound))
      << "no execution started\n" << run->output();
  std::vector<pid_t> servers;
  ASSERT_TRUE(BackgroundRun::poll([&] { return (servers = run->children()).size() == 2; }, kBound));
  for (pid_t s : servers) kill(s, SIGSTOP);
  run->send(SIGINT, true);
  ASSERT_TRUE(BackgroundRun::poll(
      [&] { return run->output().find("ending the search") != std::string::npos; }, kBound))
      << run->output();
  run->send(SIGINT, true);
  EXPECT_EQ(run->wait_exit(kBound), 130) << run->output();
  EXPECT_NE(run->output().find("weft: stopped at once by a second signal: no result"),
            std::string::npos) << run->output();
  EXPECT_TRUE(run_dirs().empty()) << "the temporary directory is removed";
  EXPECT_TRUE(BackgroundRun::poll([&] { return run->processes().empty(); }, kBound))
      << "a process of the run outlived it";
}

// The fork servers first read the program's input to its end: a pipe left open does not
// keep a Ctrl-C from ending the run in order.
TEST_F(Signals, CtrlCEndsARunWhoseInputIsStillOpen) {
  auto run = start({"-s", "random", "-n", "0", "--jobs", "2"}, /*open_stdin=*/true);
  ASSERT_TRUE(BackgroundRun::poll([&] { return run->children().size() == 2; }, kBound))
      << "the fork servers did not start\n" << run->output();
  run->send(SIGINT, true);
  EXPECT_EQ(run->wait_exit(kBound), 130) << run->output();
  EXPECT_NE(run->output().find("interrupted after 0 executions (SIGINT)"), std::string::npos)
      << run->output();
  std::ifstream in(at("result.json"));
  const json j = json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "no --json result\n" << run->output();
  EXPECT_EQ(j.value("interrupted", ""), "SIGINT") << j.dump();
  EXPECT_TRUE(run_dirs().empty()) << "the temporary directory is removed";
  EXPECT_TRUE(BackgroundRun::poll([&] { return run->processes().empty(); }, kBound))
      << "a process of the run outlived it";
}

// kill -9: weft can do nothing, yet its fork servers and their executions die with it.
TEST_F(Signals, KillNineLeavesNoProcessAndTheNextRunRemovesItsDirectory) {
  auto run = start({"-s", "random", "-n", "0", "--jobs", "2"});
  // weft, two fork servers and an execution.
  ASSERT_TRUE(BackgroundRun::poll(
      [&] { return run->executions_running() > 0 && run->processes().size() >= 4; }, kBound))
      << "no execution started\n" << run->output();
  run->send(SIGKILL);
  EXPECT_EQ(run->wait_exit(kBound), 128 + SIGKILL);
  EXPECT_TRUE(BackgroundRun::poll([&] { return run->processes().empty(); }, kBound))
      << "a fork server or an execution outlived weft";
  ASSERT_EQ(run_dirs().size(), 1u) << "nothing could remove it";

  // The next run in that TMPDIR removes it (its weft is gone), and its own.
  auto next = start({"-s", "random", "-n", "3", "--jobs", "1"});
  EXPECT_EQ(next->wait_exit(kBound), 0) << next->output();
  EXPECT_TRUE(run_dirs().empty());
}

}  // namespace
