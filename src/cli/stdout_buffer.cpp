#include "cli/stdout_buffer.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

namespace weft::cli {
namespace {

void on_broken_pipe(int) {}

bool is_open(int fd) { return fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

}  // namespace

StdoutBuffer::StdoutBuffer() {
  closed_ = !is_open(STDOUT_FILENO);
  for (int fd = 0; fd <= 2; ++fd) {
    if (is_open(fd)) continue;
    // The lowest free descriptor: this one (those below are open).
    const int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) close(null);
  }
  previous_ = std::cout.rdbuf(&buffer_);
}

StdoutBuffer::~StdoutBuffer() { std::cout.rdbuf(previous_); }

std::string StdoutBuffer::flush() {
  std::cout.flush();
  const std::string text = buffer_.str();
  buffer_.str("");
  if (text.empty()) return "";
  auto failed = [&](const char* why) { return "cannot write " + what_ + " to stdout: " + why; };
  if (closed_) return failed("stdout is closed");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(STDOUT_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) {
      signal(SIGPIPE, SIG_DFL);
      sigset_t pipe;
      sigemptyset(&pipe);
      sigaddset(&pipe, SIGPIPE);
      sigprocmask(SIG_UNBLOCK, &pipe, nullptr);
      raise(SIGPIPE);
    }
    if (n <= 0) return failed(std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<std::size_t>(n);
  }
  return "";
}

void catch_broken_pipes() {
  struct sigaction sa {};
  sa.sa_handler = &on_broken_pipe;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, nullptr);
}

}  // namespace weft::cli
