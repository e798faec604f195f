#pragma once
// The runner's side of --isolate restore (fork_executor.hpp): a child that runs execution
// after execution, restoring a snapshot of itself between them (sys/process_snapshot.hpp).
//
// The snapshot is taken where a child would become its execution, before anything of the
// execution exists. It leaves out what outlives executions: the kept arena (the runner's
// copy of the strategy, kept_strategy.hpp), the internal heap's unused range (blocks made
// by an execution are forgotten with the heap's state) and the race detector's shadow
// (emptied at each execution's end instead). Everything else, the program's memory and
// weft's alike, starts each execution as it started the first.
#include <cstdint>

#include "explore/exploration_state.hpp"

namespace weft::explorer {

// Before become_execution: becomes a runner for execution `sequence` (the server's count
// of the executions it had run by runners, SharedHeader::runner_next); returns again, with
// the strategy prepared, for each execution the server sends next. False when it cannot
// (SharedHeader::runner_refused says why): the child is one execution's.
bool become_runner(ExplorationState& s, std::uint64_t sequence);

// From the execution's last exit handler, with the exit status: when the execution may go
// on in this process (no bug, the expected status, not cut), feeds its trace to the
// runner's strategy, restores the snapshot and waits for the next execution. Returns
// when it cannot (then the process exits, as a child's would).
void runner_execution_ended(ExplorationState& s, int status);

}  // namespace weft::explorer
