#pragma once
// Random walk: at every scheduling point, run an enabled thread chosen uniformly; every
// data choice uniform too. The baseline of the PCT (Burckhardt et al., ASPLOS 2010) and
// POS (Yuan, Yang, Gu, CAV 2018) papers; a bug needing m specific choices among two
// threads is hit with probability 1/2^m.
#include <cstdint>

#include "core/rng.hpp"
#include "core/state_words.hpp"
#include "core/strategy.hpp"

namespace weft {

class RandomWalkStrategy final : public Strategy {
 public:
  explicit RandomWalkStrategy(std::uint64_t seed) : seed_(seed) {}

  // Execution i (from 0) draws from Rng(execution_seed(seed, i)) only: it can be
  // reproduced, or sharded, without running the ones before it. Never exhausted.
  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override;
  std::size_t choose_value(std::size_t n) override;
  void execution_done(const Trace&) override {}
  bool set_shard(const Shard& shard) override {
    shard_ = shard;
    return true;
  }
  // Checkpoints: execution k draws from its own seed, so the count (and what the
  // executions so far taught) is the whole state.
  bool resumable() const override { return true; }
  void save_state(bool unfinished, std::vector<std::uint64_t>* out) const override {
    StateWriter w(out);
    w.put_executions(executions_, unfinished);
  }
  bool load_state(std::span<const std::uint64_t> words) override {
    StateReader r(words);
    executions_ = r.get();
    return r.done();
  }
  Coverage coverage() const override;  // kind "none": sampling proves nothing

 private:
  std::uint64_t seed_;
  Shard shard_;  // execution k draws from execution_seed(seed_, shard_.global(k))
  std::uint64_t executions_ = 0;
  Rng rng_;
};

}  // namespace weft
