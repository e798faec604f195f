#include "explore/bug_identity.hpp"

#include "core/schedule.hpp"
#include "report/location.hpp"
#include "strategy/schedule_simplifier.hpp"

namespace weft {

std::string bug_key(const BugRecord& b) {
  std::string key = std::to_string(static_cast<int>(b.kind)) + ":" + std::to_string(b.pc) + ":" +
                    b.source_file + ":" + std::to_string(b.source_line);
  if (b.kind != BugKind::kCrash) key += ":" + b.message;
  for (const BlockedThread& t : b.blocked)
    key += ":" + std::to_string(static_cast<int>(t.op.kind)) + "@" + std::to_string(t.op.pc);
  return key;
}

std::string bug_identity(Symbolizer& symbolizer, const BugRecord& b) {
  return b.has_race ? std::string(bug_kind_name(b.kind)) + ":" + race_lines(symbolizer, b.race)
                    : bug_key(b);
}

std::string race_lines(Symbolizer& symbolizer, const DataRace& r) {
  auto line = [&](std::uintptr_t pc) {
    const Frame f = choose_location(pc, symbolizer);
    return f.file.empty() ? std::to_string(pc) : f.file + ":" + std::to_string(f.line);
  };
  std::string a = line(r.earlier.pc), b = line(r.later.pc);
  if (b < a) std::swap(a, b);
  return a + "|" + b;
}

std::size_t thread_switches(const std::string& text, std::uint64_t steps) {
  Schedule schedule;
  std::string error;
  if (!decode_schedule(text, &schedule, &error, max_decisions_for(steps))) return ~std::size_t{0};
  return SwitchSchedule::of(schedule.decisions).switches.size();
}

bool simpler_schedule(const BugRecord& candidate, const BugRecord& found, bool simpler,
                      std::uint64_t steps) {
  if (candidate.preemptions() != found.preemptions())
    return candidate.preemptions() < found.preemptions();
  return simpler &&
         thread_switches(candidate.schedule, steps) < thread_switches(found.schedule, steps);
}

BugRecord minimised(BugRecord better, const BugRecord& first) {
  better.execution = first.execution;
  better.part_execution = first.part_execution;
  better.order = first.order;
  better.found_by = first.found_by;
  better.hits = first.hits;
  better.leads_to = first.leads_to;
  better.leads_to_searched = first.leads_to_searched;
  better.minimized = true;
  return better;
}

}  // namespace weft
