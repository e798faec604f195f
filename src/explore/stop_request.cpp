#include "explore/stop_request.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <initializer_list>

#include "sys/os.hpp"

namespace weft::explorer {
namespace {

bool g_watched = false;  // weft blocked SIGINT and SIGTERM for the server
int g_signal = 0;
int g_lifeline = -1;

// The pipe WEFT_LIFELINE_FD names, when it is one still open here (what execs the
// server, gdb, could have closed it and the number be another file's by now); else -1.
int lifeline_from(const char* text) {
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long fd = std::strtol(text, &end, 10);
  struct stat st;
  if (*end != '\0' || fd < 3 || fd > INT_MAX || fstat(static_cast<int>(fd), &st) != 0 ||
      !S_ISFIFO(st.st_mode))
    return -1;
  fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);  // not for what the program executes
  return static_cast<int>(fd);
}

}  // namespace

void StopRequest::watch(const std::string& lifeline_fd) {
  sigset_t now;
  os::signal_mask(SIG_BLOCK, nullptr, &now);
  g_watched = sigismember(&now, SIGINT) == 1 && sigismember(&now, SIGTERM) == 1;
  g_lifeline = lifeline_from(lifeline_fd.c_str());
}

int StopRequest::signal() {
  if (!g_watched || g_signal != 0) return g_signal;
  sigset_t pending;
  if (sigpending(&pending) != 0) return 0;
  for (int sig : {SIGINT, SIGTERM}) {
    if (sigismember(&pending, sig) != 1) continue;
    note(sig);
    // Taken, so that a wait on it does not return at once again.
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    const struct timespec now { 0, 0 };
    sigtimedwait(&one, nullptr, &now);
    break;
  }
  return g_signal;
}

void StopRequest::add_to(sigset_t* set) {
  if (!g_watched) return;
  sigaddset(set, SIGINT);
  sigaddset(set, SIGTERM);
}

void StopRequest::note(int sig) {
  if (g_watched && g_signal == 0 && (sig == SIGINT || sig == SIGTERM)) g_signal = sig;
}

bool StopRequest::wait_readable(int fd) {
  if (!g_watched) return true;  // the read blocks, as it always did
  struct pollfd p {
    fd, POLLIN, 0
  };
  sigset_t stops;
  sigemptyset(&stops);
  add_to(&stops);
  while (!os::any_ready(&p, 1)) {
    if (made()) return false;
    const struct timespec tick { 0, 20'000'000 };
    note(sigtimedwait(&stops, nullptr, &tick));
  }
  return true;
}

void StopRequest::clear_from(sigset_t* mask) {
  if (!g_watched) return;
  sigdelset(mask, SIGINT);
  sigdelset(mask, SIGTERM);
}

void StopRequest::close_in_child() {
  if (g_lifeline >= 0) close(g_lifeline);
  g_lifeline = -1;
}

bool StopRequest::weft_gone() {
  if (g_lifeline < 0) return false;
  struct pollfd p {
    g_lifeline, POLLIN, 0
  };
  return os::any_ready(&p, 1);  // weft never writes: readable means end of file
}

}  // namespace weft::explorer
