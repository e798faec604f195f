// Randomness from the system is an input like time (CHESS section 3.1): a controlled
// thread's getrandom, getentropy and std::random_device get bytes of one stream that
// restarts with each execution (Controller::entropy), so that a program seeding its
// choices from them is still a function of its schedule, and its bugs replay. Reads of
// /dev/urandom and /dev/random draw from it too (opened_files.cpp).
#include <errno.h>
#include <sys/random.h>

#include <random>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(getrandom)
WEFT_DEFINE_REAL(getentropy)

extern "C" {

ssize_t getrandom(void* buf, size_t n, unsigned flags) {  // as glibc declares it (no __THROW)
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().entropy(buf, n);
    return static_cast<ssize_t>(n);
  }
  return real_getrandom()(buf, n, flags);
}

int getentropy(void* buf, size_t n) {  // as glibc declares it (no __THROW)
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
