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

namespace {
bool virtual_time(clockid_t clock, struct timespec* ts) {
  if (!VirtualClock::enabled || rt::controlled_thread() == nullptr) return false;
  if (!VirtualClock::read(clock, ctl().virtual_ns(), ts)) return false;
  ctl().clock_read();
  return true;
}
}  // namespace

extern "C" {

int clock_gettime(clockid_t clock, struct timespec* ts) noexcept {
  if (ts != nullptr && virtual_time(clock, ts)) return 0;
  return real_clock_gettime()(clock, ts);
}

int gettimeofday(struct timeval* tv, void* tz) noexcept {
  struct timespec ts;
  if (tv != nullptr && virtual_time(CLOCK_REALTIME, &ts)) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
  }
  return real_gettimeofday()(tv, tz);
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
