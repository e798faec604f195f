#pragma once
// portfolio: several strategies in turn, one execution each (GAMBIT, PPoPP'10, section 5:
// different heuristics win on different tests, so run several). Each member keeps its own
// state and seed; a member whose space is exhausted drops out. Coverage says how many
// executions each member ran and which member ran the last one (the one that found the
// bug, when a bug stopped the search).
#include <memory>
#include <string>
#include <vector>

#include "core/strategy.hpp"

namespace weft {

class PortfolioStrategy final : public Strategy, public Distribution {
 public:
  struct Member {
    std::string name;  // its spec, "pct:3"
    std::unique_ptr<Strategy> strategy;
    std::uint64_t executions = 0;
    bool exhausted = false;
    bool elsewhere = false;  // sharded: another shard runs this member
    bool split = false;      // sharded: this member's space is split with other shards
  };
  explicit PortfolioStrategy(std::vector<Member> members) : members_(std::move(members)) {}
  template <typename F>
  void for_each_member(F f) {
    for (Member& m : members_) f(*m.strategy);
  }

  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override { return current().choose(p); }
  std::size_t choose_value(std::size_t n) override { return current().choose_value(n); }
  void execution_done(const Trace& trace) override { current().execution_done(trace); }
  Coverage coverage() const override;
  Distribution& distribution() override { return *this; }
  // Different members on different shards (member j on the shards i with i % m == j);
  // with more shards than members, a member's shards split its space between them.
  bool set_shard(const Shard& shard) override;
  // Resumable when every member is: the turn, each member's count and state.
  bool resumable() const override;
  void save_state(bool unfinished, std::vector<std::uint64_t>* out) const override;
  bool load_state(std::span<const std::uint64_t> words) override;

 private:
  Strategy& current() { return *members_[current_].strategy; }

  std::vector<Member> members_;
  std::size_t current_ = 0;
  bool started_ = false;
};

}  // namespace weft
