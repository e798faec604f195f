#pragma once
// A command (weft) run in the background, for the tests of what signals do to a run. It
// is started in a process group of its own (as a shell starts a job: Ctrl-C is SIGINT to
// that group) with a marker in its environment, which every process of the run inherits
// (weft, its fork servers and their executions): /proc tells which are still alive.
// Every wait polls a condition, bounded by a generous time: no verdict rests on a sleep.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace weft::test {

class BackgroundRun {
 public:
  // `argv[0]` is a path; `env` adds NAME=VALUE strings; stdout and stderr go to
  // `out_file`. stdin: /dev/null, or (`open_stdin`) a pipe this object keeps open, which
  // a fork server reads to its end before it searches.
  BackgroundRun(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                const std::string& out_file, bool open_stdin = false)
      : out_file_(out_file) {
    static int serial = 0;
    marker_ = "WEFT_TEST_RUN_MARKER=" + std::to_string(getpid()) + "-" + std::to_string(++serial);
    int in[2] = {-1, -1};
    if (open_stdin && pipe2(in, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      const int fd_in = open_stdin ? in[0] : open("/dev/null", O_RDONLY);
      const int fd_out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd_in, 0);
      dup2(fd_out, 1);
      dup2(fd_out, 2);
      putenv(const_cast<char*>(marker_.c_str()));
      for (const std::string& e : env) putenv(const_cast<char*>(e.c_str()));
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    if (pid_ > 0) setpgid(pid_, pid_);
    if (in[0] >= 0) close(in[0]);
    stdin_ = in[1];
  }
  ~BackgroundRun() {
    if (pid_ > 0 && status_ < 0) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (stdin_ >= 0) close(stdin_);
  }
  BackgroundRun(const BackgroundRun&) = delete;
  BackgroundRun& operator=(const BackgroundRun&) = delete;

  pid_t pid() const { return pid_; }
  // Sends `sig` to the command (its_group: to its process group, as Ctrl-C does).
  void send(int sig, bool its_group = false) const { kill(its_group ? -pid_ : pid_, sig); }

  // The live processes of the run (zombies are dead), the command itself included.
  std::vector<pid_t> processes() const {
    std::vector<pid_t> found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const pid_t p = std::atoi(name.c_str());
      if (p != getpid() && state_of(p) != 'Z' && state_of(p) != 0 && marked(p)) found.push_back(p);
    }
    return found;
  }
  // The command's children (weft's: its fork servers).
  std::vector<pid_t> children() const {
    std::vector<pid_t> found;
    for (pid_t p : processes())
      if (parent_of(p) == pid_) found.push_back(p);
    return found;
  }
  // How many processes of the run are executions: grandchildren of the command.
  std::size_t executions_running() const {
    std::size_t n = 0;
    for (pid_t p : processes()) {
      const pid_t parent = parent_of(p);
      n += p != pid_ && parent != pid_ && parent_of(parent) == pid_;
    }
    return n;
  }

  // Polls `done` every 10 ms for at most `seconds`; whether it became true.
  static bool poll(const std::function<bool()>& done, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      if (done()) return true;
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // The command's exit status (128 + the signal that killed it); -1 while it runs past
  // `seconds`.
  int wait_exit(double seconds) {
    poll([&] {
      int st = 0;
      if (status_ < 0 && waitpid(pid_, &st, WNOHANG) == pid_)
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      return status_ >= 0;
    }, seconds);
    return status_;
  }
  std::string output() const {
    std::ifstream in(out_file_);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

 private:
  // /proc/<p>/stat's state and parent, read past the command name's last ')'. One line, by
  // getline: a process that exits meanwhile fails the read (ESRCH), which getline turns
  // into "", where istreambuf_iterator threw (a flaky cli_signals_test under load).
  static std::string stat_tail(pid_t p) {
    std::ifstream in("/proc/" + std::to_string(p) + "/stat");
    std::string text;
    std::getline(in, text);
    const std::size_t close = text.rfind(')');
    return close == std::string::npos ? "" : text.substr(close + 1);
  }
  static char state_of(pid_t p) {
    std::istringstream in(stat_tail(p));
    char state = 0;
    in >> state;
    return state;
  }
  static pid_t parent_of(pid_t p) {
    std::istringstream in(stat_tail(p));
    char state = 0;
    pid_t parent = 0;
    in >> state >> parent;
    return parent;
  }
  bool marked(pid_t p) const {
    std::ifstream in("/proc/" + std::to_string(p) + "/environ", std::ios::binary);
    for (std::string var; std::getline(in, var, '\0');)
      if (var == marker_) return true;
    return false;
  }

  std::string out_file_;
  std::string marker_;
  pid_t pid_ = -1;
  int status_ = -1;
  int stdin_ = -1;
};

}  // namespace weft::test
