// Clocks read by controlled threads return virtual time (runtime/virtual_clock.hpp).
#include <sys/time.h>
#include <time.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::VirtualClock;

WEFT_DEFINE_REAL(clock_gettime)
WEFT_DEFINE_REAL(gettimeofday)
WEFT_DEFINE_REAL(time)
WEFT_DEFINE_REAL(clock)
WEFT_DEFINE_REAL(timespec_get)

namespace {

// glibc declares these pointers nonnull, but a program may pass NULL (gettimeofday(NULL,
// &tz), or a bad call the kernel answers with EFAULT): hidden from the optimiser, which
// would otherwise fold the check away and let weft write through NULL.
template <typename T>
bool given(T* p) {
  asm("" : "+r"(p));
  return p != nullptr;
}

bool virtual_time(clockid_t clock, struct timespec* ts) {
  if (!VirtualClock::enabled || rt::controlled_thread() == nullptr) return false;
  if (!VirtualClock::read(clock, ctl().virtual_ns(), ts)) return false;
  ctl().clock_read();
  return true;
}
}  // namespace

extern "C" {

int clock_gettime(clockid_t clock, struct timespec* ts) noexcept {
  if (given(ts) && virtual_time(clock, ts)) return 0;
  return real_clock_gettime()(clock, ts);
}

int gettimeofday(struct timeval* tv, void* tz) noexcept {
  struct timespec ts;
  if (given(tv) && virtual_time(CLOCK_REALTIME, &ts)) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
  }
  return real_gettimeofday()(tv, tz);
}

// glibc's clock() and timespec_get() read the clocks through its own internal calls,
// past clock_gettime: they need their own.
clock_t clock() noexcept {
  struct timespec ts;
  if (virtual_time(CLOCK_PROCESS_CPUTIME_ID, &ts))
    return static_cast<clock_t>(ts.tv_sec * CLOCKS_PER_SEC +
                                ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
  return real_clock()();
}

int timespec_get(struct timespec* ts, int base) noexcept {
  if (base == TIME_UTC && given(ts) && virtual_time(CLOCK_REALTIME, ts)) return base;
  return real_timespec_get()(ts, base);
}

time_t time(time_t* out) noexcept {
  struct timespec ts;
  if (virtual_time(CLOCK_REALTIME, &ts)) {
    if (out != nullptr) *out = ts.tv_sec;
    return ts.tv_sec;
  }
  return real_time()(out);
}

}  // extern "C"
