#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/strategy.hpp"
#include "sys/os.hpp"

namespace weft::explorer {

// The progress line of a long exploration (a terminal's stderr): executions, their rate,
// how far the strategy got, bugs so far, time; rewritten in place a few times a second.
class ProgressLine {
 public:
  explicit ProgressLine(bool on) : on_(on), start_(os::monotonic_ns()), last_(start_) {}
  void update(std::uint64_t executions, const Strategy& strategy, std::size_t bugs) {
    if (!on_) return;
    const std::uint64_t now = os::monotonic_ns();
    if (now - last_ < 250000000) return;  // 4 times a second
    last_ = now;
    const double seconds = static_cast<double>(now - start_) / 1e9;
    const Coverage c = strategy.coverage_with_stats();
    std::string line = "weft: " + std::to_string(executions) + " executions, " +
                       std::to_string(static_cast<std::uint64_t>(executions / seconds)) + "/s";
    if (c.exploring_bound >= 0)
      line += ", bound " + std::to_string(c.exploring_bound) + ": " +
              std::to_string(c.exploring_executions) + " run";
    if (c.frontier != 0) line += ", " + std::to_string(c.frontier) + " known to run";
    line += ", " + std::to_string(bugs) + (bugs == 1 ? " bug" : " bugs");
    char t[32];
    std::snprintf(t, sizeof t, ", %.1f s", seconds);
    line += t;
    line = "\r\033[K" + line;
    shown_ = true;
    if (write(STDERR_FILENO, line.data(), line.size()) < 0) on_ = false;
  }
  // Cleared at the end.
  void clear() {
    if (!shown_) return;
    shown_ = false;
    if (write(STDERR_FILENO, "\r\033[K", 4) < 0) on_ = false;
  }

 private:
  bool on_;
  bool shown_ = false;
  std::uint64_t start_, last_;
};

}  // namespace weft::explorer
