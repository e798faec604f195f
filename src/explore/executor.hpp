#pragma once
// The Executor contract: how one execution runs. The exploration (exploration.hpp) decides
// which executions run and what is reported; an executor runs the one the strategy has
// prepared (its next_execution() returned true), which leaves its trace, its decisions and
// any bug in the shared region. Two implement it: the fork executor (a whole program, a
// child process per execution: fork_executor.hpp) and the in-process one (a test body run
// by this process's own controller: in_process_executor.hpp).
#include <cstdint>
#include <string>

#include "core/event.hpp"
#include "core/strategy.hpp"

namespace weft::explorer {

struct Executed {
  enum class Kind {
    kRan,      // it ran to its end or to its bug: what it left is in the shared region
    kStopped,  // stopped unfinished: the deadline passed, or weft was asked to stop
    kChild,    // this is the execution's own process, which returns into the program
    kFailed,   // it could not start; `error` says why
  };
  Kind kind = Kind::kRan;
  int status = 0;  // the wait status of the execution's process (0 in-process)
  std::string error;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs the execution the state's strategy has prepared: `number` names it in its bug
  // and its races; at `deadline_ns` (monotonic; 0: none) it is stopped unfinished.
  virtual Executed run(std::uint64_t number, std::uint64_t deadline_ns) = 0;
  // The trace of the execution just run, with the steps its unfinished threads would have
  // taken next (valid until the next run).
  virtual Trace trace() = 0;
  // Gives `strategy` the choices the execution just run made, when another copy of it
  // made them (a fork child's). "" or why it cannot: the execution left its schedule.
  virtual std::string feed(Strategy& strategy) = 0;
  // Whether the search goes on in this process after an execution that found a bug: a
  // fork executor's server does; an in-process bug ends the process that explores.
  virtual bool survives_bugs() const = 0;
};

}  // namespace weft::explorer
