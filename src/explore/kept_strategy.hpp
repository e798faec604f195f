#pragma once
// A search strategy whose memory is all in the kept arena (runtime/internal_heap.hpp):
// made there, and every call into it made there. A runner (fork_executor.hpp), restored
// between executions, leaves that arena out of its restores: its copy of the strategy
// goes on from one execution to the next as the server's does, and only the strategy's
// memory does.
//
// Calls through distribution() (shards, teams, checkpoints) are not in the scope: a
// runner is not used with those.
#include <memory>
#include <utility>

#include "core/strategy.hpp"
#include "runtime/internal_heap.hpp"

namespace weft::explorer {

class KeptStrategy final : public Strategy {
 public:
  using Keep = rt::InternalHeap::KeepScope;
  // `inner` made in a KeepScope.
  explicit KeptStrategy(std::unique_ptr<Strategy> inner) : inner_(std::move(inner)) {}
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
  Distribution& distribution() override { return inner_->distribution(); }

 private:
  std::unique_ptr<Strategy> inner_;
};

}  // namespace weft::explorer
