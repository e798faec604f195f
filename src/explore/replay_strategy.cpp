#include "explore/replay_strategy.hpp"

#include <cstdlib>

namespace weft::explorer {

void ReplayStrategy::diverge(const std::string& what) {
  sink_->on_tool_error("replay diverged at step " + std::to_string(step_) + " (decision " +
                       std::to_string(next_) + "): " + what +
                       "; the program is not deterministic under this schedule, or the "
                       "schedule was recorded for a different build");
  std::abort();  // on_tool_error never returns; GCC does not take a virtual's word for it
}

ThreadId ReplayStrategy::choose(const SchedulingPoint& p) {
  std::string enabled;
  for (ThreadId t : p.enabled) enabled += (enabled.empty() ? "" : ",") + std::to_string(t);
  if (next_ >= decisions_.size())
    diverge("the schedule has ended but the execution goes on (enabled threads: {" + enabled +
            "})");
  const Decision d = decisions_[next_];
  if (d.kind != Decision::kThread)
    diverge("the schedule holds a data choice where the execution chooses a thread");
  if (!p.is_enabled(d.value))
    diverge("the schedule runs thread " + std::to_string(d.value) +
            ", which is not enabled (enabled threads: {" + enabled + "})");
  ++next_;
  ++step_;
  return d.value;
}

std::size_t ReplayStrategy::choose_value(std::size_t n) {
  if (next_ >= decisions_.size())
    diverge("the schedule has ended but the execution makes a data choice");
  const Decision d = decisions_[next_];
  if (d.kind != Decision::kValue)
    diverge("the schedule runs a thread where the execution makes a data choice");
  if (d.value >= n)
    diverge("the schedule chooses value " + std::to_string(d.value) + " of " + std::to_string(n));
  ++next_;
  return d.value;
}

void ReplayStrategy::execution_done(const Trace&) {
  if (next_ != decisions_.size())
    diverge("the execution ended after " + std::to_string(next_) + " of the schedule's " +
            std::to_string(decisions_.size()) + " decisions");
}

}  // namespace weft::explorer
