#pragma once
// The fork server's search (weft run, replay, minimize): which executions run, under
// which strategy, within which budget, what is reported. Each execution runs through the
// fork executor (fork_executor.hpp).
#include "explore/fork_executor.hpp"

namespace weft::explorer {

// Never returns in the server (it writes the run's files and exits); returns in each
// execution's child, which goes on into the program.
void serve(ServerState& s);

}  // namespace weft::explorer
