#include "strategy/tree_strategy.hpp"

#include <algorithm>
#include <limits>

namespace weft {

bool TreeStrategy::next_execution() {
  // An execution that never reported its end adds nothing: release it and move on.
  if (tree_.executing()) tree_.finish_execution();
  if (exhausted_) return false;
  exhausted_ = !tree_.start_execution();
  return !exhausted_;
}

void TreeStrategy::execution_done(const Trace& trace) {
  if (!tree_.executing()) return;
  expand(trace);
  // Last in the frontier: these are the branches the search did not ask for.
  if (branches_from_races() && tree_.current_shared())
    tree_.branch_everything_new(std::numeric_limits<std::int64_t>::min() / 2);
  tree_.finish_execution();
}

bool TreeStrategy::set_shard(const Shard& shard) {
  if (!shard.sharded()) return true;
  // Race-driven search splits at the root's branches only (each shared node is branched
  // fully), and so does a state-cached one (every shard runs the shared nodes, whose cache
  // prunes less than a whole search's would: measured, 908 executions in all against 1132
  // on pass/bank_transfer); the others one level deeper too, for subtrees of more even size
  // (dfs on the 2x3 counter: 1.91x over one worker, against 1.03x).
  tree_.set_shard(shard, branches_from_races() || cache_ ? 1 : 2);
  return true;
}

bool TreeStrategy::join_team(std::uint32_t worker, std::uint64_t space, bool begins) {
  tree_.join_team(worker, space);
  if (cache_) cache_->share();
  if (!begins) {
    std::vector<std::int64_t> given;
    tree_.give_up_frontier(&given);
    for (std::int64_t p : given) frontier_moved(p, -1);
  }
  return true;
}

std::uint64_t TreeStrategy::give_work(std::uint64_t max, std::size_t max_words,
                                      std::vector<std::uint64_t>* out) {
  std::vector<std::int64_t> given;
  const std::uint64_t n = tree_.give(max, max_words, out, &given);
  for (std::int64_t p : given) frontier_moved(p, -1);
  return n;
}

void TreeStrategy::take_work(std::span<const std::uint64_t> words) {
  std::vector<std::int64_t> taken;
  tree_.take(words, &taken);
  for (std::int64_t p : taken) frontier_moved(p, +1);
  if (!taken.empty()) exhausted_ = false;
}

void TreeStrategy::take_forwards(std::vector<std::uint64_t>* out) {
  tree_.take_forwards(out);
  if (!cache_) return;
  // [length, every worker, space, key, cost, key, cost...], a few thousand pairs each.
  std::vector<std::uint64_t> news;
  cache_->take_news(&news);
  constexpr std::size_t kPairs = 4096;
  for (std::size_t i = 0; i < news.size(); i += 2 * kPairs) {
    const std::size_t n = std::min(news.size() - i, 2 * kPairs);
    out->push_back(3 + n);
    out->push_back(kEveryWorker);
    out->push_back(tree_.space());
    out->insert(out->end(), news.begin() + static_cast<std::ptrdiff_t>(i),
                news.begin() + static_cast<std::ptrdiff_t>(i + n));
  }
}

void TreeStrategy::accept_forward(std::span<const std::uint64_t> record) {
  if (record.size() >= 3 && record[1] == kEveryWorker) {
    if (cache_ && record[2] == tree_.space())
      for (std::size_t i = 3; i + 1 < record.size(); i += 2)
        cache_->learn(record[i], record[i + 1]);
    return;
  }
  std::int64_t priority = 0;
  if (!tree_.adopt(record, &priority)) return;
  frontier_moved(priority, +1);
  exhausted_ = false;
}

void TreeStrategy::save_state(bool unfinished, std::vector<std::uint64_t>* out) const {
  StateWriter w(out);
  w.put(exhausted_ ? 1 : 0);
  tree_.save(unfinished, w);
  w.put(cache_ ? 1 : 0);
  if (cache_) {
    cache_->save(w);
    shared_cache_->save(w);
  }
  save_extra(unfinished && tree_.executing(), w);
}

bool TreeStrategy::load_state(std::span<const std::uint64_t> words) {
  StateReader r(words);
  exhausted_ = r.get_at_most(1) != 0;
  if (!tree_.load(r)) return false;
  // The same spec and options make the same cache: a file that says otherwise is not this
  // search's.
  if (r.get_at_most(1) != (cache_ ? 1u : 0u)) return false;
  if (cache_ && (!cache_->load(r) || !shared_cache_->load(r))) return false;
  return load_extra(r) && r.done();
}

std::string TreeStrategy::cache_summary() const {
  if (!cache_) return "";
  const std::uint64_t classes = cached_classes();
  const std::uint64_t pruned = cache_->pruned() + shared_cache_->pruned();
  return "; " +
         (classes == 0 ? ""
                       : std::to_string(classes) + " happens-before class" +
                             (classes == 1 ? "" : "es") + ", ") +
         std::to_string(pruned) + " branch" + (pruned == 1 ? "" : "es") +
         " pruned by state caching";
}

}  // namespace weft
