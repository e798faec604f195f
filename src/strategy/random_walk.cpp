#include "strategy/random_walk.hpp"

#include <string>

namespace weft {

bool RandomWalkStrategy::next_execution() {
  rng_.reseed(execution_seed(seed_, shard_.global(executions_++)));
  return true;
}

ThreadId RandomWalkStrategy::choose(const SchedulingPoint& p) {
  // A forced step draws nothing: the stream is spent on real choices only.
  if (p.enabled.size() == 1) return p.enabled.front();
  return p.enabled[rng_.below(p.enabled.size())];
}

std::size_t RandomWalkStrategy::choose_value(std::size_t n) {
  return n <= 1 ? 0 : static_cast<std::size_t>(rng_.below(n));
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
