#pragma once
// Time under weft is the schedule's: a controlled thread reading a clock sees a virtual
// time that starts, in every execution, at the instant weft was loaded and advances with
// the steps taken (1 us each), with the clock reads (1 us each: a loop that polls a clock
// until a deadline ends) and with the time threads asked to sleep. An execution is
// then a function of its schedule, and a program measuring elapsed time sees sleeps and
// timeouts take time.
#include <time.h>

#include <cstdint>

namespace weft::rt {

// When a timed wait gives up: an absolute time on one clock, or never.
struct Deadline {
  bool timed = false;
  clockid_t clock = CLOCK_REALTIME;
  std::int64_t ns = 0;

  static Deadline never() { return Deadline{}; }
  // POSIX timed waits: `abstime` on `clock` (a null abstime never times out).
  static Deadline at(clockid_t clock, const timespec* abstime) {
    if (abstime == nullptr) return never();
    return Deadline{true, clock,
                    static_cast<std::int64_t>(abstime->tv_sec) * 1000000000 + abstime->tv_nsec};
  }
};

struct VirtualClock {
  static constexpr std::uint64_t kNsPerStep = 1000;
  static constexpr std::uint64_t kNsPerRead = 1000;
  // Off: controlled threads read the real clocks (weft run --real-time).
  static bool enabled;
  // The instant weft was loaded, per clock kind.
  static timespec realtime_base, monotonic_base;
  static void capture_base();
  // Fills *ts with the virtual time of `clock` after `elapsed_ns` of virtual time; false
  // for clocks weft leaves real.
  static bool read(clockid_t clock, std::uint64_t elapsed_ns, timespec* ts);
};

}  // namespace weft::rt
