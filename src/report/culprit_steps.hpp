#pragma once
// The steps of a bug's trace that explain it, which a report never folds away (issue #26):
// the two accesses of a race; in the failing step's causal past (happens-before by
// dependence: program order, create/start, exit/join, conflicting accesses), each
// thread's last write or release of an object the failing thread(s) just touched (the
// write a failing read observed, the signal a blocked thread missed, the flag set before
// it); and every step of the threads in a deadlock's wait-for cycle. Preemptions and
// thread operations are the text report's own rule (text_report.cpp, notable()).
#include <array>
#include <cstddef>
#include <vector>

#include "core/run_record.hpp"

namespace weft {

// One flag per step of bug.events: true for a culprit. A livelock has no failing step
// (its threads loop): only its race, if any, is marked.
std::vector<bool> culprit_steps(const BugRecord& bug);

inline constexpr std::size_t kNotInTrace = ~std::size_t{0};
// The step each side of a race was, the later access first: its thread's last step at that
// code or that address; kNotInTrace when the trace has none (or the bug is not a race).
std::array<std::size_t, 2> race_steps(const BugRecord& bug);

}  // namespace weft
