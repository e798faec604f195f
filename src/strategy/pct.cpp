#include "strategy/pct.hpp"

#include <algorithm>
#include <string>

namespace weft {

PctStrategy::PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps)
    : SamplingStrategy(seed),
      depth_(depth < 1 ? 1 : depth),
      fixed_steps_(steps),
      priorities_(depth_) {
  changes_.reserve(depth_ - 1);
}

std::uint64_t PctStrategy::steps() const {
  if (fixed_steps_ != 0) return fixed_steps_;
  return longest_ != 0 ? longest_ : kDefaultSteps;
}

bool PctStrategy::next_execution() {
  draw_next_execution();
  priorities_.reset();
  const std::uint64_t k = steps();
  changes_.clear();
  for (std::uint32_t i = 1; i < depth_; ++i) changes_.push_back({1 + rng_.below(k), i});
  std::sort(changes_.begin(), changes_.end(), [](const ChangePoint& a, const ChangePoint& b) {
    return a.step != b.step ? a.step < b.step : a.priority < b.priority;
  });
  next_change_ = 0;
  return true;
}

ThreadId PctStrategy::choose(const SchedulingPoint& p) {
  priorities_.learn_threads(p, rng_);
  // p.step steps have been taken; change point k_i fires once step k_i has been run,
  // on the thread that ran it.
  while (next_change_ < changes_.size() && changes_[next_change_].step <= p.step) {
    priorities_.lower(p.current, changes_[next_change_].priority);
    ++next_change_;
  }
  return priorities_.highest(p);
}

void PctStrategy::execution_done(const Trace& trace) {
  longest_ = std::max<std::uint64_t>(longest_, trace.size());
  max_threads_ = std::max<std::uint64_t>(max_threads_, priorities_.threads());
}

Coverage PctStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kNone;
  c.executions = executions_;
  const std::uint64_t n = std::max<std::uint64_t>(max_threads_, 1);
  std::string bound = "1/(" + std::to_string(n);
  for (std::uint32_t i = 1; i < depth_; ++i) bound += "*" + std::to_string(steps());
  bound += ")";
  c.summary = "pct:" + std::to_string(depth_) + ": " + std::to_string(executions_) +
              " executions; each finds a depth-" + std::to_string(depth_) +
              " bug with probability >= " + bound + " (n=" + std::to_string(n) +
              " threads, k=" + std::to_string(steps()) + " steps)";
  return c;
}

}  // namespace weft
