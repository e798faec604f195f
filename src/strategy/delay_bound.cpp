#include "strategy/delay_bound.hpp"

#include <algorithm>

namespace weft {

std::uint64_t delay_cost(const SchedulingPoint& p, ThreadId choice) {
  const auto& en = p.enabled;
  const auto from = std::find(en.begin(), en.end(), default_choice(p)) - en.begin();
  const auto to = std::find(en.begin(), en.end(), choice) - en.begin();
  const auto n = static_cast<std::ptrdiff_t>(en.size());
  return static_cast<std::uint64_t>((to - from + n) % n);
}

std::uint64_t DelayBoundStrategy::decision_cost(const ExecutionTree::Record& r,
                                                std::span<const ThreadId> enabled,
                                                ThreadId choice) const {
  SchedulingPoint p;
  p.current = r.current;
  p.current_enabled = r.current_enabled;
  p.enabled = enabled;
  return delay_cost(p, choice);
}

}  // namespace weft
