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
//
// With atomic regions (--no-preempt-in) a sibling's move is its step and the steps it took
// then, alone, inside a region: it sleeps with all of them (ExecutionTree::SiblingMove),
// and one whose move is unknown stays awake. Which moves are known depends on what ran
// before, so DPOR's default does not avoid sleepers then: an execution that runs a sleeper
// where another thread was awake is blocked there, and that thread's branch added instead
// (blocked_alternative()).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/op.hpp"
#include "core/scheduling_point.hpp"
#include "strategy/execution_tree.hpp"

namespace weft {

class SleepSets {
 public:
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  void start_execution();
  // The default for a thread decision: default_choice(p) unless asleep, else the next
  // thread after it (round robin) that is awake; default_choice(p) if all are asleep.
  ThreadId fallback(const SchedulingPoint& p) const;
  // Records the thread decision just made: `siblings` fall asleep first (those enabled),
  // then `pick` runs and wakes whoever its operation depends on. `moves`, when not empty,
  // are the siblings' moves (ExecutionTree::delta_sibling_moves()).
  void after_thread_decision(const SchedulingPoint& p, std::span<const std::uint32_t> siblings,
                             ThreadId pick, std::span<const ExecutionTree::SiblingMove> moves = {});
  // A value decision changes nobody's sleep.
  void after_value_decision();

  // Was t asleep at decision d of this execution (siblings of a delta at d included)?
  bool asleep(std::size_t decision, ThreadId t) const;
  // The step at which every enabled thread was asleep (npos: none), and how many
  // executions were blocked so.
  std::size_t blocked_step() const { return blocked_step_; }
  std::uint64_t blocked_executions() const { return blocked_executions_; }
  // The decision of the blocked step, and a thread awake there (kNoThread: none was).
  std::size_t blocked_decision() const { return blocked_decision_; }
  ThreadId blocked_alternative() const { return blocked_alternative_; }
  void set_blocked_executions(std::uint64_t n) { blocked_executions_ = n; }  // a checkpoint's

 private:
  struct Sleeper {
    ThreadId thread;
    Op op;
    std::uint32_t rest_first = 0;  // the rest of its move: rest_[rest_first, + rest_count)
    std::uint32_t rest_count = 0;
  };
  bool sleeping(ThreadId t) const;
  bool woken_by(const Sleeper& s, ThreadId pick, const Op& op) const;

  std::vector<Sleeper> now_;          // asleep before the next decision
  std::vector<Sleeper> next_;         // scratch
  std::vector<std::uint32_t> first_;  // per decision: offset into pool_
  std::vector<ThreadId> pool_;        // per decision: who was asleep there
  std::vector<Op> rest_;              // the sleepers' moves after their first op
  std::size_t blocked_step_ = npos;
  std::size_t blocked_decision_ = npos;
  ThreadId blocked_alternative_ = kNoThread;
  std::uint64_t blocked_executions_ = 0;
};

}  // namespace weft
