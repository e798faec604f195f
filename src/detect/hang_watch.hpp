#pragma once
// The one hang watch, for the in-process watchdog thread (watchdog.cpp) and for the fork
// server watching an execution's child (explore/fork_server.cpp): a few times a second, a
// look at the run's step count and at the thread holding the baton; once that thread is
// stalled by stall_judge.hpp's rules, where it is (a SIGURG samples its pc and callers)
// and a hang bug in the execution's slot.
#include <sys/types.h>

#include <cstdint>

#include "core/op.hpp"
#include "detect/bug_slot.hpp"
#include "detect/stack_sample.hpp"
#include "detect/stall_judge.hpp"

namespace weft::detect {

class HangWatch {
 public:
  static constexpr std::uint64_t kLookEveryNs = 50'000'000;

  explicit HangWatch(double timeout_s);
  // Between executions: nothing can hang.
  void reset();
  // A look at thread `tid` (0: none holds the baton) of process `pid` (0: this one) when
  // the run has taken `steps` steps: true once it is hung. /proc is read only when no
  // step was taken since the last look (most executions end first).
  bool hung(std::uint64_t now_ns, std::uint64_t steps, pid_t pid, pid_t tid);
  // The hang of `thread` (kernel thread `tid` of `pid`) into *slot, unless another bug
  // claimed it first: its place, from the SIGURG handler that fills *sample (installed in
  // that process: Watchdog::install_sampler), and its message.
  void record(pid_t pid, pid_t tid, ThreadId thread, StackSample* sample, BugSlot* slot) const;

 private:
  double timeout_s_;
  StallJudge judge_;
  std::uint64_t looked_steps_ = ~std::uint64_t{0};
  ThreadActivity last_;  // of the last look
};

}  // namespace weft::detect
