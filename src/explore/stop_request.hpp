#pragma once
// How weft run ends a fork server's search early, and how the server knows weft is gone.
//
// Ctrl-C or SIGTERM to weft: weft sends the server SIGINT or SIGTERM. weft blocked both
// before it executed the program, so no handler of weft's runs inside the program under
// test and none is lost before the server starts: the server polls them between
// executions and wakes on them while it waits for one. The search then ends as a budget
// ends it, its result marked interrupted (the signal's name). Executions get the
// program's own mask, without them.
//
// weft's death: the server and every execution die with their parent (PR_SET_PDEATHSIG).
// Under gdb (weft replay --gdb) the server's parent is gdb, which it outlives on purpose:
// it then watches the read end of a pipe whose write end only weft holds
// (the run file's lifeline_fd), which reports end of file once weft is gone.
#include <signal.h>

#include <string>

namespace weft::explorer {

class StopRequest {
 public:
  // At the server's start, with the lifeline's descriptor ("" none). The signals are watched
  // when weft blocked them; otherwise (a replay under gdb, whose Ctrl-C is gdb's) they
  // are the program's.
  static void watch(const std::string& lifeline_fd);
  // The signal that asked the search to stop (SIGINT or SIGTERM); 0: none yet.
  static int signal();
  static bool made() { return signal() != 0; }
  // What sigtimedwait waits on while an execution runs: `set` gets the watched signals;
  // note() is told what it returned.
  static void add_to(sigset_t* set);
  static void note(int sig);
  // Waits until `fd` can be read (data or its end); false when weft asks to stop first
  // (the program's input, a pipe that may stay open, is read before the search).
  static bool wait_readable(int fd);
  // An execution's mask: the program's, without the signals weft blocked for the server.
  static void clear_from(sigset_t* mask);
  // In an execution's child: the lifeline is the server's, not the program's.
  static void close_in_child();
  // weft has ended (the lifeline reports end of file); false when there is no lifeline.
  static bool weft_gone();
};

}  // namespace weft::explorer
