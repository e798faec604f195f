// The shared runtime: every layer, linked into one library (see CMakeLists.txt). Its
// constructor turns a program started by `weft run` into a fork server.
#include "explore/fork_server.hpp"

namespace {
__attribute__((constructor)) void weft_start() { weft::explorer::maybe_run_fork_server(); }
}  // namespace
