#pragma once
// weft::explore's first bug, minimised before it is reported (as weft run minimises a
// sampler's): GAMBIT (PPoPP'10, section 5) found that a bug's preemptions usually point
// at its root cause, so the report shows a schedule with as few as can be found within a
// budget. The found schedule is simplified first (ScheduleSimplifier: its threads' blocks
// merged or swapped, switches dropped) while the same bug shows with fewer preemptions
// or as many in fewer switches; then preemption bounding below that count searches until
// the bug shows again. Every try runs in a child of its own, as the exploration did.
#include <cstdint>
#include <functional>

#include "core/run_record.hpp"
#include "weft/weft.hpp"

namespace weft::explorer {

struct MinimizeBudget {
  std::uint64_t executions = 2000;
  double seconds = 10;
};

// Replaces run->bugs[0] by a simpler schedule of the same bug when one is found (marked
// minimised, with what it was found with); leaves it when it has no preemption, is a hang
// or a livelock (every try would cost a timeout or a whole --steps), or the run failed.
void minimize_first_bug(const std::function<void()>& body, std::uint64_t fingerprint,
                        const Options& options, const MinimizeBudget& budget, RunRecord* run);

}  // namespace weft::explorer
