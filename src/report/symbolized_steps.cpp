#include "report/symbolized_steps.hpp"

#include "report/location.hpp"

namespace weft {

std::vector<Step> symbolize_steps(const BugRecord& bug, Symbolizer& symbolizer) {
  std::vector<Step> steps;
  steps.reserve(bug.events.size());
  for (std::size_t i = 0; i < bug.events.size(); ++i) {
    const Event& e = bug.events[i];
    Frame where = choose_location(e, symbolizer);
    Step s;
    s.step = i + 1;
    s.thread = e.thread;
    s.op = std::string(op_name(e.op.kind));
    s.object = e.op.object;
    s.size = is_memory_access(e.op.kind) ? e.op.size : 0;
    s.preemption = (e.flags & kPreemption) != 0;
    s.function = std::move(where.function);
    s.file = std::move(where.file);
    s.line = where.line;
    steps.push_back(std::move(s));
  }
  return steps;
}

}  // namespace weft
