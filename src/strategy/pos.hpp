#pragma once
// POS, partial order sampling (Yuan, Yang, Gu, "Partial Order Aware Concurrency
// Sampling", CAV 2018), as its Algorithm 4 implements it:
//   - every pending event (an enabled thread's next op) gets a random priority when it
//     first becomes enabled;
//   - the pending event of highest priority runs;
//   - every pending event that races with the one that ran loses its priority and draws
//     a fresh one when next enabled; the others keep theirs. The thread that ran has a
//     new pending event, which draws a fresh priority too.
// Races: POS resets every event on the same object (section 4.2); POS* (read-only
// relaxation, section 5) does not reset a read for a read: two reads never race
// (`conflicting()`).
// Guarantee (Theorem 1): a partial order E of a program of P threads is sampled with
// probability at least (1/P)^|E| * R^U, R and U from the number of races in E; on the
// paper's running example that is 1/48 for the buggy order, against 1/128 for random
// walk and 1/200 for PCT.
#include <cstdint>
#include <vector>

#include "strategy/sampling_strategy.hpp"

namespace weft {

class PosStrategy final : public SamplingStrategy {
 public:
  // The paper's fairness workaround (section 5): after this many voluntary yields
  // (Yield, Sleep) since the last reset, every priority is drawn afresh.
  static constexpr std::uint32_t kFairnessYields = 1000;

  // relax_reads: POS* (two reads never race). fairness_yields: 0 disables the reset.
  // Execution i draws from Rng(execution_seed(seed, i)) only.
  PosStrategy(std::uint64_t seed, bool relax_reads,
              std::uint32_t fairness_yields = kFairnessYields);

  bool next_execution() override;  // never exhausted
  ThreadId choose(const SchedulingPoint& p) override;
  void execution_done(const Trace&) override {}
  Coverage coverage() const override;  // kind "none": sampling proves nothing

  bool relaxes_reads() const { return relax_reads_; }
  // Whether the POS (or POS*) race relation resets `pending` after `ran` has run.
  bool races(const Op& pending, const Op& ran) const;
  // Fairness resets in the current execution.
  std::uint64_t fairness_resets() const { return resets_; }

 private:
  // The priority of a thread's pending event; `op` identifies that event.
  struct Pending {
    std::uint64_t priority = 0;
    Op op;
    bool assigned = false;
  };

  bool relax_reads_;
  std::uint32_t fairness_yields_;
  std::vector<Pending> pending_;  // by ThreadId; kept (not shrunk) across executions
  std::uint32_t yields_ = 0;      // voluntary yields since the last reset
  std::uint64_t resets_ = 0;
};

}  // namespace weft
