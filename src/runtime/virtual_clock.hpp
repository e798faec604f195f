#pragma once
// Time under weft is the schedule's: a controlled thread reading a clock sees a virtual
// time that starts, in every execution, at the instant weft was loaded and advances with
// the steps taken (1 us each) and with the time threads asked to sleep. An execution is
// then a function of its schedule, and a program measuring elapsed time sees sleeps and
// timeouts take time.
#include <time.h>

#include <cstdint>

namespace weft::rt {

struct VirtualClock {
  static constexpr std::uint64_t kNsPerStep = 1000;
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
