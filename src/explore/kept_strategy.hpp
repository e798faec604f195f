#pragma once
// A search strategy whose memory is all in the kept arena (runtime/internal_heap.hpp):
// made there, and every call into it made there. A runner (fork_executor.hpp), restored
// between executions, leaves that arena out of its restores: its copy of the strategy
// goes on from one execution to the next as the server's does, and only the strategy's
// memory does.
//
// Calls through distribution() (shards, teams, checkpoints) are kept too, and counted: a
// runner whose copy did not see them (a team's exchange of work, a checkpoint loaded) is
// not used again (generation()).
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/strategy.hpp"
#include "runtime/internal_heap.hpp"

namespace weft::explorer {

// The inner strategy's Distribution, each call kept; those that change the search counted.
class KeptDistribution final : public Distribution {
 public:
  using Keep = rt::InternalHeap::KeepScope;
  explicit KeptDistribution(Distribution& inner) : inner_(inner) {}
  std::uint64_t generation() const { return generation_; }

  bool set_shard(const Shard& shard) override {
    Keep keep;
    ++generation_;
    return inner_.set_shard(shard);
  }
  bool probing() const override { return inner_.probing(); }
  bool join_team(std::uint32_t worker, std::uint64_t space, bool begins) override {
    Keep keep;
    ++generation_;
    return inner_.join_team(worker, space, begins);
  }
  std::uint64_t work_left() const override { return inner_.work_left(); }
  std::uint64_t give_work(std::uint64_t max, std::size_t max_words,
                          std::vector<std::uint64_t>* out) override {
    Keep keep;
    ++generation_;
    return inner_.give_work(max, max_words, out);
  }
  void take_work(std::span<const std::uint64_t> words) override {
    Keep keep;
    ++generation_;
    inner_.take_work(words);
  }
  void take_forwards(std::vector<std::uint64_t>* out) override {
    Keep keep;
    ++generation_;
    inner_.take_forwards(out);
  }
  void accept_forward(std::span<const std::uint64_t> record) override {
    Keep keep;
    ++generation_;
    inner_.accept_forward(record);
  }
  bool resumable() const override { return inner_.resumable(); }
  void save_state(bool unfinished, std::vector<std::uint64_t>* out) const override {
    Keep keep;
    inner_.save_state(unfinished, out);
  }
  bool load_state(std::span<const std::uint64_t> words) override {
    Keep keep;
    ++generation_;
    return inner_.load_state(words);
  }

 private:
  Distribution& inner_;
  std::uint64_t generation_ = 0;
};

class KeptStrategy final : public Strategy {
 public:
  using Keep = rt::InternalHeap::KeepScope;
  // `inner` made in a KeepScope.
  explicit KeptStrategy(std::unique_ptr<Strategy> inner)
      : inner_(std::move(inner)), distribution_(inner_->distribution()) {}
  // Changes to the search made through distribution(), which a runner's copy misses.
  std::uint64_t generation() const { return distribution_.generation(); }
  ~KeptStrategy() override {
    Keep keep;
    inner_.reset();
  }
  bool next_execution() override {
    Keep keep;
    return inner_->next_execution();
  }
  ThreadId choose(const SchedulingPoint& p) override {
    Keep keep;
    return inner_->choose(p);
  }
  std::size_t choose_value(std::size_t n) override {
    Keep keep;
    return inner_->choose_value(n);
  }
  void execution_done(const Trace& trace) override {
    Keep keep;
    inner_->execution_done(trace);
  }
  Coverage coverage() const override {
    Keep keep;
    return inner_->coverage();
  }
  bool needs_memory_accesses() const override { return inner_->needs_memory_accesses(); }
  Coverage coverage_with_stats() const override {
    Keep keep;
    return inner_->coverage_with_stats();
  }
  Distribution& distribution() override { return distribution_; }

 private:
  std::unique_ptr<Strategy> inner_;
  KeptDistribution distribution_;
};

}  // namespace weft::explorer
