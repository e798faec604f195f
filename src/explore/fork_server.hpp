#pragma once
// The fork server: whole programs under weft (`weft run`, `weft replay`).
//
// weft's runtime is loaded into the program (linked by the compiler wrappers, or
// preloaded). When `weft run` started the program, the runtime takes control in a
// constructor, before main and before any thread exists, and becomes a fork server: it
// keeps the search state and forks one child per execution, so that every execution
// starts from the same fresh process. Each child returns from the constructor into the
// program with its main thread as controlled thread 0, records its trace into shared
// memory and ends with the process. The server classifies each outcome (bug, exit
// status, signal, hang), feeds the strategy, and at the end writes the result where
// `weft run` reads it.
//
// The protocol with `weft run` is one file of the run's options (core/run_config.def),
// named by WEFT_RUN_OPTIONS, which is removed at once (so that a program the tested program
// executes does not become a server too); the server writes its files next to it:
// result.json, report.txt, output.txt (what the failing execution printed), schedule.txt
// (the first bug's schedule).

namespace weft::explorer {

// Called from the runtime's constructor: returns at once when not started by `weft run`;
// otherwise never returns in the server, and returns in each execution's child.
void maybe_run_fork_server();

}  // namespace weft::explorer
