// Reads that block on a pipe, FIFO or socket, and waits for any of several descriptors
// (poll, select, epoll): another controlled thread may be the one to write, and it cannot
// run while the reader blocks in the kernel holding the baton. The wait is modelled
// (FdWait: enabled once a descriptor is ready); when no controlled thread can run, the
// data can only come from outside and the call goes ahead for real (with its timeout).
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(read)
WEFT_DEFINE_REAL(readv)
WEFT_DEFINE_REAL(recv)
WEFT_DEFINE_REAL(recvfrom)
WEFT_DEFINE_REAL(recvmsg)
WEFT_DEFINE_REAL(accept)
WEFT_DEFINE_REAL(accept4)
WEFT_DEFINE_REAL(poll)
WEFT_DEFINE_REAL(ppoll)
WEFT_DEFINE_REAL(select)
WEFT_DEFINE_REAL(pselect)
WEFT_DEFINE_REAL(epoll_wait)
WEFT_DEFINE_REAL(epoll_pwait)

namespace {

// Regular files and non-blocking descriptors never wait for another thread.
bool may_block(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
  const int fl = fcntl(fd, F_GETFL);
  return fl >= 0 && (fl & O_NONBLOCK) == 0;
}

void wait_readable(int fd, std::uintptr_t pc) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr) return;
  RuntimeScope scope(self);
  if (!may_block(fd)) return;
  ctl().schedule(self, make_op(OpKind::FdWait, static_cast<std::uintptr_t>(fd) + 1, pc, 0, POLLIN));
}

// Before a wait for any of `fds` with a timeout in ms (-1: none): a step that waits until
// one is ready. No descriptor: a sleep. No timeout: a yield, so that a loop polling
// for data lets the writer run.
void wait_any(std::vector<pollfd> fds, long timeout_ms, std::uintptr_t pc) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr) return;
  RuntimeScope scope(self);
  Controller& c = ctl();
  if (timeout_ms == 0) {
    c.schedule(self, make_op(OpKind::Yield, 0, pc));
    return;
  }
  if (fds.empty()) {
    c.schedule(self, make_op(OpKind::Sleep, 0, pc));
    if (timeout_ms > 0) c.sleep_for(static_cast<std::uint64_t>(timeout_ms) * 1000000);
    return;
  }
  self->poll_set = std::move(fds);
  const pollfd& first = self->poll_set.front();
  c.schedule(self, make_op(OpKind::FdWait, static_cast<std::uintptr_t>(first.fd) + 1, pc, 0,
                           static_cast<std::uint32_t>(static_cast<unsigned short>(first.events))));
  self->poll_set.clear();
}

long timeout_ms(const struct timespec* t) {
  return t == nullptr ? -1 : t->tv_sec * 1000 + (t->tv_nsec + 999999) / 1000000;
}

long timeout_ms(const struct timeval* t) {
  return t == nullptr ? -1 : t->tv_sec * 1000 + (t->tv_usec + 999) / 1000;
}

// select's sets as poll's descriptors.
std::vector<pollfd> as_pollfds(int n, const fd_set* r, const fd_set* w, const fd_set* e) {
  std::vector<pollfd> fds;
  for (int fd = 0; fd < n && fd < FD_SETSIZE; ++fd) {
    short events = 0;
    if (r != nullptr && FD_ISSET(fd, r)) events |= POLLIN;
    if (w != nullptr && FD_ISSET(fd, w)) events |= POLLOUT;
    if (e != nullptr && FD_ISSET(fd, e)) events |= POLLPRI;
    if (events != 0) fds.push_back(pollfd{fd, events, 0});
  }
  return fds;
}

std::vector<pollfd> one(int fd) { return {pollfd{fd, POLLIN, 0}}; }

}  // namespace

extern "C" {

int poll(struct pollfd* fds, nfds_t n, int timeout) {
  if (rt::controlled_thread() != nullptr)
    wait_any(std::vector<pollfd>(fds, fds + n), timeout, WEFT_PC);
  return real_poll()(fds, n, timeout);
}
int ppoll(struct pollfd* fds, nfds_t n, const struct timespec* t, const sigset_t* mask) {
  if (rt::controlled_thread() != nullptr)
    wait_any(std::vector<pollfd>(fds, fds + n), timeout_ms(t), WEFT_PC);
  return real_ppoll()(fds, n, t, mask);
}
int select(int n, fd_set* r, fd_set* w, fd_set* e, struct timeval* t) {
  if (rt::controlled_thread() != nullptr) wait_any(as_pollfds(n, r, w, e), timeout_ms(t), WEFT_PC);
  return real_select()(n, r, w, e, t);
}
int pselect(int n, fd_set* r, fd_set* w, fd_set* e, const struct timespec* t,
            const sigset_t* mask) {
  if (rt::controlled_thread() != nullptr) wait_any(as_pollfds(n, r, w, e), timeout_ms(t), WEFT_PC);
  return real_pselect()(n, r, w, e, t, mask);
}
// An epoll descriptor is itself readable while it has events to report.
int epoll_wait(int epfd, struct epoll_event* events, int max, int timeout) {
  if (rt::controlled_thread() != nullptr) wait_any(one(epfd), timeout, WEFT_PC);
  return real_epoll_wait()(epfd, events, max, timeout);
}
int epoll_pwait(int epfd, struct epoll_event* events, int max, int timeout, const sigset_t* mask) {
  if (rt::controlled_thread() != nullptr) wait_any(one(epfd), timeout, WEFT_PC);
  return real_epoll_pwait()(epfd, events, max, timeout, mask);
}

ssize_t read(int fd, void* buf, size_t n) {
  wait_readable(fd, WEFT_PC);
  return real_read()(fd, buf, n);
}
ssize_t readv(int fd, const struct iovec* iov, int n) {
  wait_readable(fd, WEFT_PC);
  return real_readv()(fd, iov, n);
}
ssize_t recv(int fd, void* buf, size_t n, int flags) {
  if ((flags & MSG_DONTWAIT) == 0) wait_readable(fd, WEFT_PC);
  return real_recv()(fd, buf, n, flags);
}
ssize_t recvfrom(int fd, void* buf, size_t n, int flags, struct sockaddr* from, socklen_t* len) {
  if ((flags & MSG_DONTWAIT) == 0) wait_readable(fd, WEFT_PC);
  return real_recvfrom()(fd, buf, n, flags, from, len);
}
ssize_t recvmsg(int fd, struct msghdr* msg, int flags) {
  if ((flags & MSG_DONTWAIT) == 0) wait_readable(fd, WEFT_PC);
  return real_recvmsg()(fd, msg, flags);
}
int accept(int fd, struct sockaddr* addr, socklen_t* len) {
  wait_readable(fd, WEFT_PC);
  return real_accept()(fd, addr, len);
}
int accept4(int fd, struct sockaddr* addr, socklen_t* len, int flags) {
  wait_readable(fd, WEFT_PC);
  return real_accept4()(fd, addr, len, flags);
}

}  // extern "C"
