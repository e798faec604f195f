#pragma once
#include <cstdint>

namespace weft::explorer {

// After the first data race (--races fail, without --keep-going) the search goes on, the
// race's accesses now scheduling points and races no longer failing, for what the race
// leads to (an assertion, a crash, a deadlock...), within 10 s and 2000 executions (and
// the run's own budget); the race is reported with it.
struct RaceAftermath {
  static constexpr std::uint64_t kMostNs = 10'000'000'000;
  static constexpr std::uint64_t kMostExecutions = 2000;
  bool on = false;
  std::uint64_t since_ns = 0;
  std::uint64_t since_executions = 0;

  void begin(std::uint64_t now_ns, std::uint64_t executions) {
    on = true;
    since_ns = now_ns;
    since_executions = executions;
  }
  bool over(std::uint64_t now_ns, std::uint64_t executions) const {
    return on && (now_ns - since_ns >= kMostNs || executions - since_executions >= kMostExecutions);
  }
};

}  // namespace weft::explorer
