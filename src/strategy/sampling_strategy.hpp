#pragma once
// What the samplers (random walk, PCT, PCTVB, POS) share: execution k draws from its own
// seed, Rng(execution_seed(seed, shard.global(k))), so that it can be reproduced, sharded
// or resumed without running the ones before it; a data choice is uniform (none of their
// papers says anything of data); a checkpoint is the count of executions, and what a
// sampler learnt from them (save_more, load_more). A new sampler is its file and a line
// in the registry.
#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"
#include "core/shard.hpp"
#include "core/state_words.hpp"
#include "core/strategy.hpp"

namespace weft {

class SamplingStrategy : public Strategy, public Distribution {
 public:
  Distribution& distribution() override { return *this; }
  std::size_t choose_value(std::size_t n) override {
    return n <= 1 ? 0 : static_cast<std::size_t>(rng_.below(n));
  }
  bool set_shard(const Shard& shard) override {
    shard_ = shard;
    return true;
  }
  bool resumable() const override { return true; }
  void save_state(bool unfinished, std::vector<std::uint64_t>* out) const final {
    StateWriter w(out);
    w.put_executions(executions_, unfinished);
    save_more(w);
  }
  bool load_state(std::span<const std::uint64_t> words) final {
    StateReader r(words);
    executions_ = r.get();
    load_more(r);
    return r.done();
  }

 protected:
  explicit SamplingStrategy(std::uint64_t seed) : seed_(seed) {}
  // The next execution's draws, from its own seed: first thing in next_execution().
  void draw_next_execution() { rng_.reseed(execution_seed(seed_, shard_.global(executions_++))); }
  // What the executions so far taught (PCT: the longest execution, the most threads).
  virtual void save_more(StateWriter&) const {}
  virtual void load_more(StateReader&) {}

  std::uint64_t executions_ = 0;
  Rng rng_;

 private:
  std::uint64_t seed_;
  Shard shard_;
};

}  // namespace weft
