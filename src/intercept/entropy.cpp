// Randomness from the system is an input like time (CHESS section 3.1): a controlled
// thread's getrandom, getentropy, std::random_device and reads of /dev/urandom or
// /dev/random get bytes of one stream that restarts with each execution
// (Controller::entropy), so that a program seeding its choices from them is still a
// function of its schedule, and its bugs replay.
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <random>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(getrandom)
WEFT_DEFINE_REAL(getentropy)
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
  return path != nullptr &&
         (strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0);
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

// The program opens `path`: a random device gives a controlled thread the stream, and
// anything else is the real call's.
template <typename Real>
int opened(const char* path, int flags, Real real) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && random_device_path(path))
    return device_file(self, flags);
  return real();
}

template <typename Real>
FILE* fopened(const char* path, Real real) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && random_device_path(path)) {
    const int fd = device_file(self, 0);
    return fd < 0 ? nullptr : fdopen(fd, "r");
  }
  return real();
}

}  // namespace

extern "C" {

ssize_t getrandom(void* buf, size_t n, unsigned flags) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().entropy(buf, n);
    return static_cast<ssize_t>(n);
  }
  return real_getrandom()(buf, n, flags);
}

int getentropy(void* buf, size_t n) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    if (n > 256) {
      errno = EIO;
      return -1;
    }
    RuntimeScope scope(self);
    ctl().entropy(buf, n);
    return 0;
  }
  return real_getentropy()(buf, n);
}

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&] { return real_open()(path, flags, mode); });
}

int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&] { return real_open64()(path, flags, mode); });
}

int openat(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&] { return real_openat()(dir, path, flags, mode); });
}

int openat64(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return opened(path, flags, [&] { return real_openat64()(dir, path, flags, mode); });
}

FILE* fopen(const char* path, const char* mode) {
  return fopened(path, [&] { return real_fopen()(path, mode); });
}

FILE* fopen64(const char* path, const char* mode) {
  return fopened(path, [&] { return real_fopen64()(path, mode); });
}

}  // extern "C"

// libstdc++'s std::random_device draws every value through this member (whatever its
// source: the rdrand instruction, getrandom or a device file), exported from
// libstdc++.so: weft's definition comes first in the lookup order.
std::random_device::result_type std::random_device::_M_getval() {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    result_type v = 0;
    ctl().entropy(&v, sizeof v);
    return v;
  }
  using Real = result_type (*)(std::random_device*);
  static const auto real =
      reinterpret_cast<Real>(dlsym(RTLD_NEXT, "_ZNSt13random_device9_M_getvalEv"));
  return real(this);
}
