#pragma once
// Who each blocked thread of a deadlock waits for: a mutex's holder, as the trace leaves
// it, or the thread it joins; and the threads that wait for each other in a cycle. The
// text report keeps their steps in view (culprit_steps.hpp); the HTML page draws the cycle.
#include <map>
#include <vector>

#include "core/run_record.hpp"

namespace weft {

class WaitFor {
 public:
  explicit WaitFor(const BugRecord& bug);
  // The thread `waiting` waits for; kNoThread when none is known (a condition, a semaphore).
  ThreadId holder(ThreadId waiting) const;
  // One cycle, from its lowest thread, each thread followed by the one it waits for; empty
  // when the threads wait for no one in a ring.
  std::vector<ThreadId> cycle() const;
  // Every thread on some cycle, in increasing order.
  std::vector<ThreadId> in_cycles() const;

 private:
  bool on_cycle(ThreadId start) const;
  std::map<ThreadId, ThreadId> waits_for_;  // ordered: the same cycle every time
};

}  // namespace weft
