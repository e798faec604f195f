#include "explore/recorded_options.hpp"

#include <array>
#include <cstdint>

namespace weft::explorer {

namespace {

constexpr std::array<const char*, 3> kRaces = {"off", "report", "fail"};    // Races' order
constexpr std::array<const char*, 3> kPreemptOn = {"sync", "racy", "all"};  // PreemptOn's

// The execution options an in-process search has (no --no-preempt-in, --expect-exit or
// --check-output: those are a whole program's).
bool in_process(const std::string& name) {
  for (const char* n : {"races", "preempt-on", "explore-timeouts", "spurious-wakeups", "steps",
                        "real-time", "no-fair"})
    if (name == n) return true;
  return false;
}

// An enum's value as the table names it: "" (not given) at its default.
template <typename E>
std::string enum_text(const std::array<const char*, 3>& names, E value, E default_value) {
  return value == default_value ? "" : names[static_cast<std::size_t>(value)];
}
template <typename E>
E enum_value(const std::array<const char*, 3>& names, const std::string& text, E default_value) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (text == names[i]) return static_cast<E>(i);
  return default_value;
}

RunConfig as_run_config(const Options& o) {
  const Options d;
  RunConfig c;
  c.races = enum_text(kRaces, o.races, d.races);
  c.preempt_on = enum_text(kPreemptOn, o.preempt_on, d.preempt_on);
  c.explore_timeouts = o.explore_timeouts;
  c.spurious_wakeups = o.spurious_wakeups;
  c.steps = o.max_steps;
  c.real_time = o.real_time;
  c.no_fair = !o.fair;
  return c;
}

}  // namespace

OptionList recorded_options(const Options& o) { return execution_options(as_run_config(o)); }

std::string apply_recorded_options(const OptionList& recorded, Options* o) {
  const Options d;
  RunConfig c = as_run_config(d);
  for (const auto& [name, value] : recorded)
    if (!in_process(name) || !set_execution_option(name, value, &c).empty())
      return "the schedule records option " + name + "=" + value +
             ", which weft::replay does not take (a schedule of weft run's? replay it with weft "
             "replay)";
  o->races = enum_value(kRaces, c.races, d.races);
  o->preempt_on = enum_value(kPreemptOn, c.preempt_on, d.preempt_on);
  o->explore_timeouts = c.explore_timeouts;
  o->spurious_wakeups = c.spurious_wakeups;
  o->max_steps = c.steps;
  o->real_time = c.real_time;
  o->fair = !c.no_fair;
  return "";
}

}  // namespace weft::explorer
