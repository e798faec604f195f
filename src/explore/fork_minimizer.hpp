#pragma once
// weft run's schedule minimisation: a first bug often carries needless preemptions
// (GAMBIT, PPoPP'10, section 5: the preemptions "often indicate the root cause"). First
// the found schedule is simplified (ScheduleSimplifier: its threads' blocks merged or
// swapped, its switches dropped) while the same bug shows up with fewer preemptions, or
// as many in fewer switches: cheap, a local minimum. Then iterative preemption bounding
// below that count runs until the same bug shows up: the first such execution has the
// fewest preemptions of any, when it comes within the budget. Each trial runs through the
// fork executor. (weft::explore's is in_process_minimizer.hpp.)
#include <cstdint>
#include <string>

#include "core/run_record.hpp"
#include "explore/fork_executor.hpp"
#include "report/symbolizer.hpp"

namespace weft::explorer {

// What minimising a bug needs of the search that found it.
struct MinimiseContext {
  ExplorationState& s;
  ForkExecutor& executor;
  std::uint64_t fingerprint;
  Symbolizer& symbolizer;
  std::uint64_t deadline_ns;  // where the run's own budget (--time) ends; 0: none
};

// Not a hang, whose every trial would cost --hang-timeout twice, nor a livelock, whose
// every trial runs to --steps and whose preemptions are fair scheduling's own, nor a wrong
// output (its trials compare no output).
bool worth_minimising(const BugRecord& b);

// `found` becomes the simplest schedule found of the same bug (`target`: its identity,
// bug_identity.hpp), and *output (when given) its execution's output. True in an
// execution's child, which the caller returns into the program.
bool minimise(MinimiseContext& c, BugRecord& found, const std::string& target, std::string* output);

}  // namespace weft::explorer
