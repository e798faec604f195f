#include "runtime/virtual_clock.hpp"

namespace weft::rt {

bool VirtualClock::enabled = true;
timespec VirtualClock::realtime_base{};
timespec VirtualClock::monotonic_base{};

namespace {
timespec plus(timespec base, std::uint64_t ns) {
  const std::uint64_t total = static_cast<std::uint64_t>(base.tv_nsec) + ns % 1000000000;
  base.tv_sec += static_cast<time_t>(ns / 1000000000 + total / 1000000000);
  base.tv_nsec = static_cast<long>(total % 1000000000);
  return base;
}
// Captured when weft is loaded: the same instant in every execution (they are forks, or
// reruns, of this process).
// Before the fork server starts (weft_so.cpp): every execution sees the same base.
__attribute__((constructor(102))) void capture() { VirtualClock::capture_base(); }
}  // namespace

void VirtualClock::capture_base() {
  clock_gettime(CLOCK_REALTIME, &realtime_base);
  clock_gettime(CLOCK_MONOTONIC, &monotonic_base);
}

bool VirtualClock::read(clockid_t clock, std::uint64_t elapsed_ns, timespec* ts) {
  switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI: *ts = plus(realtime_base, elapsed_ns); return true;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME: *ts = plus(monotonic_base, elapsed_ns); return true;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID: *ts = plus(timespec{0, 0}, elapsed_ns); return true;
    default: return false;
  }
}

}  // namespace weft::rt
