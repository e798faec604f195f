#include "strategy/random_walk.hpp"

#include <string>

namespace weft {

bool RandomWalkStrategy::next_execution() {
  draw_next_execution();
  return true;
}

ThreadId RandomWalkStrategy::choose(const SchedulingPoint& p) {
  // A forced step draws nothing: the stream is spent on real choices only.
  if (p.enabled.size() == 1) return p.enabled.front();
  return p.enabled[rng_.below(p.enabled.size())];
}

Coverage RandomWalkStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kNone;
  c.executions = executions_;
  c.summary = "random: " + std::to_string(executions_) +
              " random executions; sampling, no coverage guarantee";
  return c;
}

}  // namespace weft
