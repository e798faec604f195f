#pragma once
// weft run's exploration of a whole program (weft run, replay, minimize): the one loop
// (exploration.hpp), each execution a child of this fork server (fork_executor.hpp).
#include "explore/exploration_state.hpp"

namespace weft::explorer {

// Never returns in the server (it writes the run's files and exits); returns in each
// execution's child, which goes on into the program.
void serve(ExplorationState& s);

}  // namespace weft::explorer
