// What weft writes (issue #27, item 7): every report file and stdout is written checked,
// so that a full device, a kernel file or a closed stdout is an error in one line rather
// than a report silently lost; two outputs naming one file, or an output naming the
// program under test (or another file weft reads), are refused before anything runs; a
// reader that stops reading stdout ends weft by SIGPIPE, with nothing left behind.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

std::string weft() { return kBin + "/weft"; }
std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A deadlock found by dfs in its first executions (exit 1), and a program without a bug in
// a few executions (exit 0).
const std::string kBug = " -s dfs -n 0 -- " + kBin + "/cli_deadlock";
const std::string kNoBug = " -s random -n 5 -- " + kBin + "/cli_locked";

// The processes alive (not zombies) whose environment holds `marker` ("NAME=value").
std::size_t alive_with(const std::string& marker) {
  std::size_t n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string env = contents(e.path() / "environ");
    if (env.find(marker + '\0') == std::string::npos) continue;
    const std::string stat = contents(e.path() / "stat");
    const std::size_t close = stat.rfind(") ");
    if (close != std::string::npos && stat.size() > close + 2 && stat[close + 2] != 'Z' &&
        stat[close + 2] != 'X')
      ++n;
  }
  return n;
}

class Outputs : public weft::test::TempDirTest {
 protected:
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  // weft `args` in the test's directory, stderr with stdout (or as `redirect` says).
  Output weft_in_dir(const std::string& args, const std::string& redirect = "2>&1") {
    return sh("cd " + dir_.string() + " && " + weft() + " " + args, redirect);
  }
  // Refused before anything runs: exit 2, one line saying `says`, nothing written.
  void refused(const std::string& args, const std::string& says) {
    const Output o = weft_in_dir(args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(says), std::string::npos) << args << "\n" << o.out;
    EXPECT_EQ(lines(o.out), 1u) << "one line: " << args << "\n" << o.out;
  }
};

// A write that fails is said in one line; without a bug it makes the exit status 2, with
// one the bug's 1 stays (the more important verdict), and no "schedule written to" lie.
TEST_F(Outputs, AFailedWriteOfAReportFileIsAnErrorInOneLine) {
  const struct {
    std::string args, says;
    int status;
  } cases[] = {
      {"run -q --json /dev/full" + kNoBug,
       "weft: cannot write the JSON result to /dev/full: No space left on device", 2},
      {"run -q --json /dev/full" + kBug,
       "weft: cannot write the JSON result to /dev/full: No space left on device", 1},
      {"run -q --schedule-out /dev/full" + kBug,
       "weft: cannot write the schedule to /dev/full: No space left on device", 1},
      {"run -q --html /dev/full" + kBug,
       "weft: cannot write the HTML report to /dev/full: No space left on device", 1},
      {"run -q --trace-out /dev/full" + kBug,
       "weft: cannot write the trace to /dev/full: No space left on device", 1},
  };
  for (const auto& c : cases) {
    const Output o = weft_in_dir(c.args);
    EXPECT_EQ(o.status, c.status) << c.args << "\n" << o.out;
    EXPECT_TRUE(o.has(c.says + "\n")) << c.args << "\n" << o.out;
    EXPECT_FALSE(o.has("schedule written to /dev/full")) << c.args << "\n" << o.out;
  }
  // weft replay and weft merge write theirs the same way.
  ASSERT_EQ(weft_in_dir("run -q --json " + at("r.json") + " --schedule-out " + at("s") + kBug).status, 1);
  Output o = weft_in_dir("replay --json /dev/full " + at("s") + " -- " + kBin + "/cli_deadlock");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: cannot write the JSON result to /dev/full: No space left on device\n")) << o.out;
  o = weft_in_dir("merge -q --json /dev/full --schedule-out " + at("m.s") + " " + at("r.json"));
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: cannot write the merged JSON result to /dev/full: No space left on device\n"))
      << o.out;
  o = weft_in_dir("merge -q --schedule-out /dev/full " + at("r.json"));
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("weft: cannot write the schedule to /dev/full: No space left on device\n")) << o.out;
  EXPECT_FALSE(o.has("schedule written to /dev/full")) << o.out;
}

// A file of the kernel's (a write to /proc/version fails with EIO, after the search) is
// refused before the search.
TEST_F(Outputs, AKernelFileIsRefusedBeforeTheSearch) {
  refused("run --html /proc/version" + kBug, "--html /proc/version: is in /proc or /sys");
  refused("run --json /proc/version" + kNoBug, "--json /proc/version: is in /proc or /sys");
  refused("run --trace-out /sys/kernel/new-file" + kBug, "--trace-out /sys/kernel/new-file: is in /proc or /sys");
  refused("merge --json /proc/version x.json", "--json /proc/version: is in /proc or /sys");
}

// Two outputs naming one file would clobber each other: refused, however the file is
// spelt, before the search; devices (/dev/null) may be shared.
TEST_F(Outputs, TwoOutputsNamingOneFileAreRefused) {
  refused("run --json F --schedule-out F" + kBug, "--json F and --schedule-out F name the same file");
  refused("run --json ./F --html F" + kBug, "--json ./F and --html F name the same file");
  fs::create_directories(dir_ / "sub");
  refused("run --trace-out sub/../F --html " + at("F") + kBug, "name the same file");
  std::ofstream(at("G")) << "kept\n";
  fs::create_hard_link(dir_ / "G", dir_ / "H");
  refused("run --json G --html H" + kBug, "--json G and --html H name the same file");
  fs::create_symlink(dir_ / "G", dir_ / "L");
  refused("run --json G --trace-out L" + kBug, "--json G and --trace-out L name the same file");
  EXPECT_EQ(contents(dir_ / "G"), "kept\n");
  // The schedule's default file, NAME.weft-schedule in the current directory, counts too.
  refused("run --json cli_deadlock.weft-schedule" + kBug,
          "--json cli_deadlock.weft-schedule and the default --schedule-out "
          "cli_deadlock.weft-schedule name the same file");
  refused("merge --json a.weft-schedule --schedule-out ./a.weft-schedule x.json",
          "name the same file");
  EXPECT_EQ(weft_in_dir("run -q --json /dev/null --html /dev/null --schedule-out /dev/null" + kBug).status, 1);
  EXPECT_FALSE(fs::exists(dir_ / "F"));
}

// An output that is the program under test (or the schedule replayed, a result merged,
// weft's runtime) would overwrite it: refused, the file untouched.
TEST_F(Outputs, AnOutputThatIsAFileWeftReadsIsRefused) {
  fs::copy_file(kBin + "/cli_deadlock", dir_ / "prog");
  const std::string before = contents(dir_ / "prog");
  refused("run --json ./prog -- ./prog", "--json ./prog is");
  refused("run --json ./prog -- ./prog", "the program under test: weft would overwrite it");
  refused("run --schedule-out prog -- ./prog", "--schedule-out prog is");
  refused("run --html " + at("prog") + " ./prog", "the program under test");
  // weft removes --check-output's file before each execution.
  refused("run --check-output prog -- ./prog", "--check-output prog is");
  fs::create_symlink(dir_ / "prog", dir_ / "link");
  refused("run --trace-out link -- ./prog", "the program under test");
  EXPECT_EQ(contents(dir_ / "prog"), before);

  ASSERT_EQ(weft_in_dir("run -q --json r.json --schedule-out s -- ./prog").status, 1);
  const std::string schedule = contents(dir_ / "s");
  refused("replay --json s s -- ./prog", "the schedule file to replay");
  refused("minimize --html s s -- ./prog", "--html s is the schedule file to minimize");
  EXPECT_EQ(contents(dir_ / "s"), schedule);
  const std::string result = contents(dir_ / "r.json");
  refused("merge --json r.json r.json", "--json r.json is one of the results to merge");
  EXPECT_EQ(contents(dir_ / "r.json"), result);
  refused("run --json " + kBin + "/../lib/libweft.so -- ./prog", "weft's runtime");
}

// The report on a stdout that is full or closed is not lost silently: said on stderr,
// exit 2 unless a bug's 1 gives the status.
TEST_F(Outputs, AReportThatCannotReachStdoutIsAnError) {
  const struct {
    std::string args, redirect, says;
    int status;
  } cases[] = {
      {"run" + kNoBug, "2>&1 >/dev/full", "cannot write the report to stdout: No space left on device", 2},
      {"run" + kBug, "2>&1 >/dev/full", "cannot write the report to stdout: No space left on device", 1},
      {"run --json -" + kNoBug, "2>&1 >/dev/full",
       "cannot write the JSON result to stdout: No space left on device", 2},
      {"run" + kNoBug, "2>&1 >&-", "cannot write the report to stdout: stdout is closed", 2},
      {"run --json -" + kBug, "2>&1 >&-", "cannot write the JSON result to stdout: stdout is closed", 1},
      {"strategies", "2>&1 >/dev/full", "cannot write the report to stdout: No space left on device", 2},
      {"--help", "2>&1 >&-", "cannot write the report to stdout: stdout is closed", 2},
  };
  for (const auto& c : cases) {
    const Output o = weft_in_dir(c.args, c.redirect);
    EXPECT_EQ(o.status, c.status) << c.args << " " << c.redirect << "\n" << o.out;
    EXPECT_TRUE(o.has("weft: " + c.says + "\n")) << c.args << " " << c.redirect << "\n" << o.out;
  }
  // Nothing to print (-q, no bug): nothing lost, no error.
  EXPECT_EQ(weft_in_dir("run -q" + kNoBug, "2>&1 >&-").status, 0);
  // With stdout closed, no file weft opens becomes its stdout: the JSON file holds JSON only.
  EXPECT_EQ(weft_in_dir("run --json j.json" + kBug, "2>&1 >&-").status, 1);
  EXPECT_EQ(contents(dir_ / "j.json").rfind("{", 0), 0u) << contents(dir_ / "j.json");
}

// The run's own files in TMPDIR cut short (a full disk; here a file size limit, SIGXFSZ
// ignored, which fails a write past 512 bytes with EFBIG) are an error: not a truncated
// JSON result or report passed on as the run's, exit 0 or 1.
TEST_F(Outputs, AResultCutShortInTheTemporaryDirectoryIsAnError) {
  fs::create_directories(dir_ / "tmp");
  const std::string limited =
      "ulimit -S -f 1; trap '' XFSZ; WEFT_JOBS=1 TMPDIR=" + at("tmp") + " " + weft() + " run ";
  for (const std::string args : {"-q --json -" + kNoBug, kBug}) {
    const Output o = sh("(" + limited + args + " </dev/null)");
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_TRUE(o.has("weft: cannot write the run's result to " + at("tmp") + "/weft-")) << o.out;
    EXPECT_TRUE(o.has(": File too large\n")) << o.out;
    EXPECT_FALSE(o.has("schedule written to")) << o.out;
    EXPECT_FALSE(o.has("\"version\"")) << "no JSON result, whole or cut\n" << o.out;
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

// A stdout whose reader has gone (`weft run ... | head -1`) ends weft by SIGPIPE, as any
// filter, once its run is done: its files written, no process and no temporary directory
// left. The pipe's reader is closed before weft starts, so that no timing decides it.
TEST_F(Outputs, ABrokenPipeOnStdoutEndsWeftBySigpipeWithNothingLeft) {
  const fs::path tmp = dir_ / "tmp";
  fs::create_directories(tmp);
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  close(p[0]);
  const std::string tmpdir = "TMPDIR=" + tmp.string();
  const std::string marker = "WEFT_OUTPUT_TEST=" + std::to_string(getpid());
  const std::string schedule = at("s");
  const std::string program = kBin + "/cli_deadlock";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(p[1], STDOUT_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    putenv(const_cast<char*>(tmpdir.c_str()));
    putenv(const_cast<char*>(marker.c_str()));
    const std::string w = weft();
    // --json -: more than a pipe's buffer (4 KiB), which weft once wrote before its files.
    execl(w.c_str(), w.c_str(), "run", "-s", "dfs", "-n", "0", "--json", "-", "--schedule-out",
          schedule.c_str(), "--", program.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(p[1]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) << "status " << status;
  EXPECT_TRUE(fs::exists(schedule)) << "the files are written before stdout";
  EXPECT_TRUE(fs::is_empty(tmp)) << "a run directory was left in " << tmp;
  // weft killed its run's processes before it wrote; the last may take a moment to die.
  std::size_t left = alive_with(marker);
  for (int i = 0; i < 3000 && left != 0; ++i) {
    usleep(10000);
    left = alive_with(marker);
  }
  EXPECT_EQ(left, 0u) << "processes of the run left";
}

}  // namespace
