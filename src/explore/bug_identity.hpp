#pragma once
// When two executions show the same bug, and when a schedule of it is simpler: shared by
// weft run's minimisation (fork_server.cpp) and weft::explore's (in_process_minimizer).
#include <cstdint>
#include <string>

#include "core/run_record.hpp"

namespace weft {

// Two executions hit the same bug when its kind and where it happened agree (--keep-going
// counts the hits of each). Crash messages hold fault addresses that vary: left out.
std::string bug_key(const BugRecord& b);

// How often the schedule's thread changes (preemptions or not); `steps`: its step bound.
std::size_t thread_switches(const std::string& schedule, std::uint64_t steps);

// Whether `candidate` (the same bug) is a simpler schedule of it than `found`: fewer
// preemptions or, `simpler`, as many in fewer thread switches.
bool simpler_schedule(const BugRecord& candidate, const BugRecord& found, bool simpler,
                      std::uint64_t steps);

// `better`, a schedule of the bug `first` was: `first`'s finding (execution, worker,
// hits, what it led to) with `better`'s schedule, marked minimised.
BugRecord minimised(BugRecord better, const BugRecord& first);

}  // namespace weft
