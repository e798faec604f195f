#pragma once
// When two executions show the same bug, and when a schedule of it is simpler: shared by
// the exploration's bug table (exploration.cpp), weft run's minimisation
// (fork_minimizer.cpp) and weft::explore's (in_process_minimizer).
#include <cstdint>
#include <string>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

// Two executions hit the same bug when its kind and where it happened agree (--keep-going
// counts the hits of each). Crash messages hold fault addresses that vary: left out.
std::string bug_key(const BugRecord& b);

// What makes two bugs the same one: for a race (or a use after free) its kind and the
// pair of its source lines, in either order; else bug_key().
std::string bug_identity(Symbolizer& symbolizer, const BugRecord& b);

// The pair of source lines of a race, in either order ("a.c:7|a.c:9").
std::string race_lines(Symbolizer& symbolizer, const DataRace& r);

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
