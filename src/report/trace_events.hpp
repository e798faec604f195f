#pragma once
// A bug's interleaving in the Chrome/Perfetto trace-event format (JSON), for people who
// would rather look than read: open it in ui.perfetto.dev or chrome://tracing.
//
// One track per thread (named T0, T1, ...), a slice per step (its operation, object and
// source line in args; a step is 1 us of made-up time, so the order is the schedule's),
// flow arrows for the happens-before edges between threads (a step after the last
// conflicting step of another thread on the same object; create -> start; exit -> join),
// an instant event at each preemption and one for the bug on the failing step.
#include <string>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

std::string format_trace_events(const BugRecord& bug, Symbolizer& symbolizer);

}  // namespace weft
