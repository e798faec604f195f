#pragma once
// The common shape of the systematic strategies (DFS now; preemption bounding, delay
// bounding, DPOR, best-first later): GAMBIT's execution tree drives every execution, and
// a subclass only says which branches an execution adds (its backtrack generator) and
// with which priority (its priority function).
#include <memory>
#include <string>

#include "core/strategy.hpp"
#include "strategy/execution_tree.hpp"
#include "strategy/state_cache.hpp"

namespace weft {

class TreeStrategy : public Strategy, public Distribution {
 public:
  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override { return tree_.choose_thread(p); }
  std::size_t choose_value(std::size_t n) override { return tree_.choose_value(n); }
  void execution_done(const Trace& trace) override;
  Coverage coverage_with_stats() const override {
    Coverage c = coverage();
    c.nodes_created = tree_.stats().nodes_created;
    c.peak_nodes = tree_.stats().peak_alive;
    c.frontier = tree_.frontier_size();
    return c;
  }

  Distribution& distribution() override { return *this; }
  // Disjoint subtrees per shard (ExecutionTree::set_shard). State caching goes on, split
  // as pruning_cache() says.
  bool set_shard(const Shard& shard) override;
  bool probing() const override { return tree_.probing(); }
  // Teams (ExecutionTree::give, take, adopt): frontier nodes move between workers.
  bool join_team(std::uint32_t worker, std::uint64_t space, bool begins) override;
  std::uint64_t work_left() const override { return tree_.frontier_size(); }
  std::uint64_t give_work(std::uint64_t max, std::size_t max_words,
                          std::vector<std::uint64_t>* out) override;
  void take_work(std::span<const std::uint64_t> words) override;
  // The branches for other workers' nodes, and the states this worker's cache learnt
  // (each worker prunes by what all of them explored, as one process would).
  void take_forwards(std::vector<std::uint64_t>* out) override;
  void accept_forward(std::span<const std::uint64_t> record) override;
  // Checkpoints: the tree, the state caches, and what the subclass counts (save_extra).
  bool resumable() const override { return true; }
  void save_state(bool unfinished, std::vector<std::uint64_t>* out) const override;
  bool load_state(std::span<const std::uint64_t> words) override;

  const ExecutionTree& tree() const { return tree_; }
  // "" while the program has replayed faithfully; else where it did not (one line).
  const std::string& nondeterminism() const { return tree_.nondeterminism(); }
  // The frontier is empty: every execution the generator asked for has run.
  bool exhausted() const { return exhausted_; }
  // CHESS state caching (state_cache.hpp): prune branches whose happens-before state was
  // explored already. Off unless asked for (the registry asks, unless told not to);
  // before the first execution.
  void set_state_cache(bool on) {
    on = on && uses_state_cache();
    cache_ = on ? std::make_unique<StateCache>() : nullptr;
    shared_cache_ = on ? std::make_unique<StateCache>() : nullptr;
    if (cache_ && tree_.in_team()) cache_->share();
    if (on) tree_.set_record_next_ops(true);
  }
  const StateCache* state_cache() const { return cache_.get(); }
  // Whether set_state_cache(true) takes effect (not for DPOR, whose pruning it would
  // undermine).
  virtual bool uses_state_cache() const { return true; }

 protected:
  // The backtrack points depend on what other executions explored (DPOR's races): a
  // sharded search then branches a shared node fully, so that no shard needs a point
  // another shard's subtree would have added (the extra branches are mostly sleep-set
  // blocked).
  virtual bool branches_from_races() const { return false; }
  // A frontier node of `priority` came from another worker (+1) or went to one (-1):
  // for the subclasses that count what waits at each priority.
  virtual void frontier_moved(std::int64_t priority, int delta) {}
  // frontier_moved() for a count of frontier entries per level, a branch's priority being
  // minus its level (the bounded searches').
  static void count_moved(std::vector<std::uint64_t>& waiting, std::int64_t priority, int delta) {
    const auto level = static_cast<std::size_t>(-priority);
    if (delta > 0) {
      if (waiting.size() <= level) waiting.resize(level + 1, 0);
      ++waiting[level];
    } else if (level < waiting.size() && waiting[level] != 0) {
      --waiting[level];
    }
  }

  explicit TreeStrategy(ExecutionTree::Options options = {}) : tree_(options) {}
  // A subclass's own part of a checkpoint (its counts); `unfinished` as in save_state.
  virtual void save_extra(bool unfinished, StateWriter& w) const {}
  virtual bool load_extra(StateReader& r) { return r.ok(); }
  // The backtrack generator: called once per execution, after it ended and before its
  // node is released; adds what to explore next with tree_.branch().
  virtual void expand(const Trace& trace) = 0;

  ExecutionTree tree_;
  std::unique_ptr<StateCache> cache_;
  std::unique_ptr<StateCache> shared_cache_;  // a sharded tree's shared nodes
  // The state cache for the current execution's branches (nullptr without caching). A
  // sharded search's shared nodes must be branched alike on every shard: they have a cache
  // of their own, which only they fill, and every shard runs them in the same order, so it
  // prunes alike everywhere. Below the split, a node and its whole subtree are this
  // shard's: a state seen there before had everything below it explored here, as in an
  // unsharded search (whose nodes are all below the split).
  StateCache* pruning_cache() {
    return tree_.current_shared() ? shared_cache_.get() : cache_.get();
  }
  // After expand's scan with `cache`: the execution's happens-before class, unless it was
  // a probe (another shard's to count).
  void note_class(StateCache* cache) {
    if (cache != nullptr && !tree_.probing()) cache->note_class();
  }
  // For coverage summaries: "; 12 happens-before classes, 30 branches pruned by state
  // caching" ("" without caching; no classes when sharded, see cached_classes()).
  std::string cache_summary() const;
  // The distinct happens-before classes the cache saw, for Coverage::classes; 0 (unknown)
  // when sharded or in a team: workers may meet the same class, and a merge adds their
  // counts up.
  std::uint64_t cached_classes() const {
    return cache_ && !tree_.sharded() && !tree_.in_team() ? cache_->distinct_classes() : 0;
  }

 private:
  bool exhausted_ = false;
};

}  // namespace weft
