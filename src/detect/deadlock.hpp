#pragma once
// The deadlock verdict (no thread can go on) and its explanation in one line: the cycle
// of threads waiting for each other when there is one, otherwise what each blocked
// thread waits for.
#include <string>
#include <vector>

#include "core/op.hpp"

namespace weft::detect {

struct WaitEdge {
  ThreadId thread = kNoThread;
  Op op;                        // what it waits to do
  ThreadId holder = kNoThread;  // the thread it waits for (lock owner, joined thread), if any
};

// An unfinished thread none of whose next steps is enabled.
struct StuckThread {
  ThreadId thread = kNoThread;
  bool can_time_out = false;     // a timed wait: it times out when nothing else can run
  bool waits_for_input = false;  // input from outside the process (a read, a poll)
};

// Who goes on when no thread is enabled: time passes for the timed waits, else the
// threads waiting for outside input block for real (the hang watch sees one that never
// returns). Empty: a deadlock. A spurious wakeup is never offered here, so that a lost
// wakeup is the deadlock it is when no spurious wakeup comes.
std::vector<ThreadId> unblocked_when_none_enabled(const std::vector<StuckThread>& blocked);

std::string describe_deadlock(const std::vector<WaitEdge>& waits);

}  // namespace weft::detect
