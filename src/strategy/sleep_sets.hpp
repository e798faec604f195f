#pragma once
// Sleep sets (Godefroid, 1996; with DPOR as in Flanagan and Godefroid, POPL'05, and
// Abdulla et al., POPL'14) over the execution tree: a thread whose next operation was
// explored from an earlier state, and is independent of everything run since, is asleep:
// every execution that runs it now is equivalent to one explored from there.
//
// Who is asleep where follows from the tree alone, so that every replay of a prefix puts
// the same threads to sleep: at a node's delta, the choices made there by the executions
// that branched at that decision before it fall asleep (ExecutionTree::delta_siblings);
// sleepers stay asleep while the threads that run do independent operations. The default
// schedule avoids sleeping threads (fallback()); when every enabled thread is asleep the
// execution is sleep-set blocked: what follows repeats an explored class, and nothing
// found after that step is new.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/op.hpp"
#include "core/scheduling_point.hpp"

namespace weft {

class SleepSets {
 public:
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  void start_execution();
  // The default for a thread decision: default_choice(p) unless asleep, else the next
  // thread after it (round robin) that is awake; default_choice(p) if all are asleep.
  ThreadId fallback(const SchedulingPoint& p) const;
  // Records the thread decision just made: `siblings` fall asleep first (those enabled),
  // then `pick` runs and wakes whoever its operation depends on.
  void after_thread_decision(const SchedulingPoint& p, std::span<const std::uint32_t> siblings,
                             ThreadId pick);
  // A value decision changes nobody's sleep.
  void after_value_decision();

  // Was t asleep at decision d of this execution (siblings of a delta at d included)?
  bool asleep(std::size_t decision, ThreadId t) const;
  // The step at which every enabled thread was asleep (npos: none), and how many
  // executions were blocked so.
  std::size_t blocked_step() const { return blocked_step_; }
  std::uint64_t blocked_executions() const { return blocked_executions_; }
  void set_blocked_executions(std::uint64_t n) { blocked_executions_ = n; }  // a checkpoint's

 private:
  struct Sleeper {
    ThreadId thread;
    Op op;
  };
  bool sleeping(ThreadId t) const;

  std::vector<Sleeper> now_;              // asleep before the next decision
  std::vector<Sleeper> next_;             // scratch
  std::vector<std::uint32_t> first_;      // per decision: offset into pool_
  std::vector<ThreadId> pool_;            // per decision: who was asleep there
  std::size_t blocked_step_ = npos;
  std::uint64_t blocked_executions_ = 0;
};

}  // namespace weft
