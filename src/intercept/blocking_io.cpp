// Reads that block on a pipe, FIFO or socket: another controlled thread may be the one to
// write it, and it cannot run while the reader blocks in the kernel holding the baton.
// The wait is modelled (FdWait: enabled once the descriptor is ready); when no controlled
// thread can run, the data can only come from outside and the call goes ahead for real.
#include <fcntl.h>
#include <poll.h>
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
  ctl().schedule(self, make_op(OpKind::FdWait, static_cast<std::uintptr_t>(fd) + 1, pc, 0,
                               POLLIN));
}

}  // namespace

extern "C" {

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
