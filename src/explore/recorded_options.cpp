#include "explore/recorded_options.hpp"

#include <array>
#include <cstdint>

#include "core/numbers.hpp"

namespace weft::explorer {

namespace {

constexpr std::array<const char*, 3> kRaces = {"off", "report", "fail"};  // Races' order
constexpr std::array<const char*, 3> kPreemptOn = {"sync", "racy", "all"};  // PreemptOn's

template <typename E>
bool set_enum(const std::array<const char*, 3>& names, const std::string& value, E* out) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (value == names[i]) {
      *out = static_cast<E>(i);
      return true;
    }
  return false;
}

bool set_option(const std::string& name, const std::string& value, Options* o) {
  if (name == "races") return set_enum(kRaces, value, &o->races);
  if (name == "preempt-on") return set_enum(kPreemptOn, value, &o->preempt_on);
  if (name == "steps") return read_number(value, kStepsNumber, &o->max_steps).empty();
  bool* flag = name == "explore-timeouts"   ? &o->explore_timeouts
               : name == "spurious-wakeups" ? &o->spurious_wakeups
               : name == "real-time"        ? &o->real_time
                                            : nullptr;
  if (flag != nullptr) *flag = true;
  if (name == "no-fair") o->fair = false;
  return (flag != nullptr || name == "no-fair") && value == "yes";
}

}  // namespace

OptionList recorded_options(const Options& o) {
  const Options d;
  OptionList l;
  if (o.races != d.races) l.emplace_back("races", kRaces[static_cast<std::size_t>(o.races)]);
  if (o.preempt_on != d.preempt_on)
    l.emplace_back("preempt-on", kPreemptOn[static_cast<std::size_t>(o.preempt_on)]);
  if (o.explore_timeouts) l.emplace_back("explore-timeouts", "yes");
  if (o.spurious_wakeups) l.emplace_back("spurious-wakeups", "yes");
  if (o.max_steps != d.max_steps) l.emplace_back("steps", std::to_string(o.max_steps));
  if (o.real_time) l.emplace_back("real-time", "yes");
  if (!o.fair) l.emplace_back("no-fair", "yes");
  return l;
}

std::string apply_recorded_options(const OptionList& recorded, Options* o) {
  const Options d;
  Options out = *o;
  out.races = d.races;
  out.preempt_on = d.preempt_on;
  out.explore_timeouts = d.explore_timeouts;
  out.spurious_wakeups = d.spurious_wakeups;
  out.max_steps = d.max_steps;
  out.real_time = d.real_time;
  out.fair = d.fair;
  for (const auto& [name, value] : recorded)
    if (!set_option(name, value, &out))
      return "the schedule records option " + name + "=" + value +
             ", which weft::replay does not take (a schedule of weft run's? replay it with weft "
             "replay)";
  *o = out;
  return "";
}

}  // namespace weft::explorer
