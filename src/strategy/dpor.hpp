#pragma once
// dpor: dynamic partial-order reduction with sleep sets (Flanagan and Godefroid,
// "Dynamic Partial-Order Reduction for Model Checking Software", POPL'05; the
// execution-tree form of GAMBIT, Coons et al. PPoPP'10, Figure 4 lines 27-41).
//
// A depth-first search of the execution tree that branches only where a race of the
// last execution says another order may lead somewhere new (dpor_analysis.hpp), and never
// runs a thread whose step was explored from an earlier state and commutes with what ran
// since (sleep_sets.hpp). When it completes, every Mazurkiewicz trace (happens-before
// class) of the program was explored; without sleep-set blocked executions, each exactly
// once. Value decisions (timeouts, spurious wakeups) are explored in full, as dfs does.
//
// Assumed, as CHESS and every stateless checker: the program is deterministic, and its
// threads communicate only through operations weft sees (no hidden data race, no pipe
// written by one thread and read by another: fd-wait steps void the claim).
#include <vector>

#include "strategy/dpor_analysis.hpp"
#include "strategy/sleep_sets.hpp"
#include "strategy/tree_strategy.hpp"

namespace weft {

class DporStrategy : public TreeStrategy {
 public:
  // sleep_sets false: plain DPOR (persistent sets only), for comparison.
  explicit DporStrategy(bool sleep_sets = true);
  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override;
  std::size_t choose_value(std::size_t n) override;
  void execution_done(const Trace& trace) override;
  Coverage coverage() const override;
  // State caching is not combined with DPOR (the two prune on different grounds).
  bool uses_state_cache() const override { return false; }

  // Executions that found every enabled thread asleep at some step: they repeat an
  // explored class (GAMBIT calls such work redundant).
  std::uint64_t redundant_executions() const {
    return sleep_.blocked_executions() - blocked_probes_;
  }
  // Executions whose trace shows an fd-wait: the claim of full coverage does not hold.
  std::uint64_t unmodelled_executions() const { return unmodelled_; }

 protected:
  bool branches_from_races() const override { return true; }
  void expand(const Trace& trace) override;
  void reverse(const DporAnalysis::Race& race);
  bool asleep(std::size_t decision, ThreadId t) const {
    return use_sleep_ && sleep_.asleep(decision, t);
  }
  // The frontier priority of a branch DPOR adds (best-first search orders by it; 0: the
  // depth-first order). `value` branches are data choices (thread is then the value).
  virtual std::int64_t priority_of(std::size_t decision, ThreadId thread, bool value,
                                   bool conservative, bool before_release) {
    return 0;
  }
  // "12 executions, 12 happens-before classes, 0 redundant (sleep-set blocked)"
  std::string counts() const;
  void save_extra(bool unfinished, StateWriter& w) const override;
  bool load_extra(StateReader& r) override;

  bool use_sleep_;
  bool regions_ = false;  // --no-preempt-in: sleep sets over moves (ExecutionTree::SiblingMove)
  SleepSets sleep_;
  DporAnalysis analysis_;
  std::uint64_t unmodelled_ = 0;
  std::uint64_t cancels_ = 0;         // executions in which a thread was cancelled
  std::uint64_t conservative_ = 0;    // races whose initial was not enabled
  std::uint64_t blocked_probes_ = 0;  // sharded: blocked probes (not this shard's)
};

}  // namespace weft
