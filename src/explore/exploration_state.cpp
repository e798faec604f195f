#include "explore/exploration_state.hpp"

namespace weft::explorer {

rt::ControllerConfig controller_config(ExplorationState& s) {
  SharedHeader& h = s.region->header();
  rt::ControllerConfig c;
  c.strategy = s.strategy.get();
  c.sink = s.sink.get();
  c.max_steps = s.config.steps;
  c.fair = s.config.fair();
  if (!s.no_preempt.empty()) c.no_preempt = &s.no_preempt;
  c.events = s.region->events();
  c.decisions = s.region->decisions();
  c.decision_capacity = s.region->max_decisions();
  c.steps_out = &h.steps;
  c.decisions_out = &h.decisions;
  c.thread_notes = &h.thread_notes;
  c.allocations = &h.allocations;
  c.preempt_on = s.config.preempt_mode;
  c.explore_timeouts = s.config.explore_timeouts;
  c.spurious_wakeups = s.config.spurious_wakeups;
  c.racy = &s.racy;
  c.races = s.races;
  c.races_fail = s.config.races == "fail";
  return c;
}

}  // namespace weft::explorer
