#pragma once
// Debian's chromium, headless, for the tests that check a page as a browser builds it (its
// scripts run): the DOM it dumps, or a screenshot. Made for a loaded CI machine: no
// sandbox (containers lack its namespaces), a profile of its own removed afterwards, a
// generous deadline, one retry, and nothing left running: chromium runs in a process group
// of its own, killed when it is done, and any process still naming the profile (a crash
// handler that left the group) is killed by its pid.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace weft::test {

class HeadlessChromium {
 public:
  static constexpr const char* kPath = "/usr/bin/chromium";
  static bool available() { return access(kPath, X_OK) == 0; }

  struct Result {
    bool ok = false;     // chromium exited 0 within the deadline
    std::string out;     // its stdout (the DOM, for dump_dom)
    std::string error;   // what went wrong, for the test's message
  };

  // The page's DOM after its scripts ran (--virtual-time-budget lets its timers fire).
  static Result dump_dom(const std::string& page) {
    return run_twice({"--virtual-time-budget=5000", "--dump-dom", "file://" + page});
  }
  // A PNG of the page at `width` x `height`, written to `png`.
  static Result screenshot(const std::string& page, const std::string& png, int width, int height) {
    return run_twice({"--window-size=" + std::to_string(width) + "," + std::to_string(height),
                      "--screenshot=" + png, "file://" + page});
  }

 private:
  static constexpr auto kDeadline = std::chrono::seconds(120);

  static Result run_twice(const std::vector<std::string>& args) {
    Result r = run_once(args);
    if (!r.ok) r = run_once(args);  // a loaded machine: once more before failing
    return r;
  }

  static Result run_once(const std::vector<std::string>& args) {
    namespace fs = std::filesystem;
    const fs::path profile = fs::temp_directory_path() /
                             ("weft-chromium-" + std::to_string(getpid()) + "-" + std::to_string(++runs()));
    fs::remove_all(profile);
    fs::create_directories(profile);
    std::vector<std::string> argv = {kPath, "--headless", "--disable-gpu", "--no-sandbox",
                                     "--no-first-run", "--disable-dev-shm-usage",
                                     "--user-data-dir=" + profile.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    Result r;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return {false, "", "pipe failed"};
    const pid_t pid = fork();
    if (pid == 0) {
      setpgid(0, 0);
      dup2(out[1], STDOUT_FILENO);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, STDERR_FILENO);  // chromium's complaints about D-Bus and the like
      std::vector<char*> cargv;
      for (std::string& a : argv) cargv.push_back(a.data());
      cargv.push_back(nullptr);
      execv(kPath, cargv.data());
      _exit(127);
    }
    close(out[1]);
    if (pid < 0) {
      close(out[0]);
      return {false, "", "fork failed"};
    }
    setpgid(pid, pid);  // also here: no race with the child's own call
    int status = 0;
    const bool in_time = wait_reading(pid, out[0], r.out, &status);
    close(out[0]);
    kill_naming(profile.string());
    std::error_code ec;
    fs::remove_all(profile, ec);
    r.ok = in_time && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!in_time) r.error = "chromium did not finish within 120 s";
    else if (!r.ok) r.error = "chromium failed (status " + std::to_string(status) + ")";
    return r;
  }

  static int& runs() {
    static int n = 0;
    return n;
  }

  // Reads chromium's stdout until it has exited and its output ended; what is left of its
  // group once it exited is killed (a child still holding the pipe). False at the deadline
  // (then everything is killed).
  static bool wait_reading(pid_t pid, int fd, std::string& into, int* status) {
    const auto deadline = std::chrono::steady_clock::now() + kDeadline;
    bool exited = false, eof = false;
    char buf[65536];
    while (!(exited && eof)) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(-pid, SIGKILL);
        if (!exited) waitpid(pid, status, 0);
        return false;
      }
      if (!exited && waitpid(pid, status, WNOHANG) == pid) {
        exited = true;
        kill(-pid, SIGKILL);
      }
      pollfd p = {fd, POLLIN, 0};
      if (eof || poll(&p, 1, 200) <= 0) continue;
      const ssize_t got = read(fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) eof = true;
      else into.append(buf, static_cast<std::size_t>(got));
    }
    return true;
  }

  // Kills, by pid, each process whose command line names `profile` (only this run's).
  static void kill_naming(const std::string& profile) {
    DIR* proc = opendir("/proc");
    if (proc == nullptr) return;
    while (const dirent* d = readdir(proc)) {
      const pid_t pid = static_cast<pid_t>(std::atoi(d->d_name));
      if (pid <= 0) continue;
      std::ifstream in("/proc/" + std::string(d->d_name) + "/cmdline", std::ios::binary);
      const std::string cmdline((std::istreambuf_iterator<char>(in)), {});
      if (cmdline.find(profile) != std::string::npos) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, WNOHANG);
      }
    }
    closedir(proc);
  }
};

}  // namespace weft::test
