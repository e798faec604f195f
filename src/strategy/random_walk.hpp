#pragma once
// Random walk: at every scheduling point, run an enabled thread chosen uniformly; every
// data choice uniform too. The baseline of the PCT (Burckhardt et al., ASPLOS 2010) and
// POS (Yuan, Yang, Gu, CAV 2018) papers; a bug needing m specific choices among two
// threads is hit with probability 1/2^m.
#include <cstdint>

#include "strategy/sampling_strategy.hpp"

namespace weft {

class RandomWalkStrategy final : public SamplingStrategy {
 public:
  explicit RandomWalkStrategy(std::uint64_t seed) : SamplingStrategy(seed) {}

  // Execution i (from 0) draws from Rng(execution_seed(seed, i)) only: it can be
  // reproduced, or sharded, without running the ones before it. Never exhausted.
  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override;
  void execution_done(const Trace&) override {}
  Coverage coverage() const override;  // kind "none": sampling proves nothing
};

}  // namespace weft
