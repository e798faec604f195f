// Files a controlled thread opens that name inputs weft makes the same in every execution
// (CHESS section 3.1): /dev/urandom and /dev/random give a file of bytes of the execution's
// random stream (Controller::entropy, as getrandom does, entropy.cpp), and a path under
// /proc/<getpid()>/, whose pid is virtual (runtime/virtual_ids.hpp), names this process:
// /proc/self/. Covered: open, open64, openat, openat64, fopen, fopen64 (std::ifstream).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "intercept/real.hpp"
#include "runtime/virtual_ids.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(open)
WEFT_DEFINE_REAL(open64)
WEFT_DEFINE_REAL(openat)
WEFT_DEFINE_REAL(openat64)
WEFT_DEFINE_REAL(fopen)
WEFT_DEFINE_REAL(fopen64)

namespace {

// What a program reads from a random device, once opened: enough for any seed.
constexpr std::size_t kDeviceBytes = 64 << 10;

bool random_device_path(const char* path) {
  return path != nullptr && (strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0);
}

// A file of kDeviceBytes of the stream, open for reading at its start: what opening a
// random device gives a controlled thread. -1 (errno set) when it cannot be made.
int device_file(ThreadState* self, int flags) {
  RuntimeScope scope(self);
  const int fd = memfd_create("weft-random", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
  if (fd < 0) return -1;
  static unsigned char bytes[kDeviceBytes];
  ctl().entropy(bytes, sizeof bytes);
  if (pwrite(fd, bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    const int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

int mode_arg(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

// `path`, or when it is under /proc/<the virtual pid>, the same under /proc/self (in buf).
const char* proc_path(const char* path, char (&buf)[PATH_MAX]) {
  if (path == nullptr || !rt::VirtualIds::enabled || strncmp(path, "/proc/", 6) != 0) return path;
  char pid[16];
  const int n = snprintf(pid, sizeof pid, "%d", static_cast<int>(rt::VirtualIds::kPid));
  const char* rest = path + 6;
  if (strncmp(rest, pid, static_cast<std::size_t>(n)) != 0 || (rest[n] != '/' && rest[n] != '\0'))
    return path;
  if (snprintf(buf, sizeof buf, "/proc/self%s", rest + n) >= static_cast<int>(sizeof buf))
    return path;
  return buf;
}

// The program opens `path`: a random device gives a controlled thread the stream, and
// anything else is the real call's (given the path to open).
template <typename Real>
int opened(const char* path, int flags, Real real) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && random_device_path(path))
    return device_file(self, flags);
  char buf[PATH_MAX];
  return real(proc_path(path, buf));
}

template <typename Real>
FILE* fopened(const char* path, Real real) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && random_device_path(path)) {
    const int fd = device_file(self, 0);
    return fd < 0 ? nullptr : fdopen(fd, "r");
  }
  char buf[PATH_MAX];
  return real(proc_path(path, buf));
}

}  // namespace

extern "C" {

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&](const char* p) { return real_open()(p, flags, mode); });
}

int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&](const char* p) { return real_open64()(p, flags, mode); });
}

int openat(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&](const char* p) { return real_openat()(dir, p, flags, mode); });
}

int openat64(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&](const char* p) { return real_openat64()(dir, p, flags, mode); });
}

FILE* fopen(const char* path, const char* mode) {
  return fopened(path, [&](const char* p) { return real_fopen()(p, mode); });
}

FILE* fopen64(const char* path, const char* mode) {
  return fopened(path, [&](const char* p) { return real_fopen64()(p, mode); });
}

}  // extern "C"
