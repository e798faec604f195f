#include "strategy/state_cache.hpp"

#include <algorithm>

namespace weft {
namespace {

std::uint64_t mix(std::uint64_t h) {  // splitmix64's finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}
std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return mix(a * 0x9e3779b97f4a7c15ull + b); }

void join(std::vector<std::uint32_t>& into, const std::vector<std::uint32_t>& from) {
  if (from.size() > into.size()) into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// Pseudo-objects for the thread operations (kept apart from addresses by the top bits).
constexpr std::uint64_t kStartOf = 0xA000000000000000ull, kExitOf = 0xB000000000000000ull;

}  // namespace

void StateCache::ensure_thread(ThreadId t) {
  if (t >= clocks_.size()) {
    clocks_.resize(t + 1);
    counts_.resize(t + 1, 0);
  }
}

std::uint64_t StateCache::object_key(ThreadId t, const Op& op, bool* writes) const {
  *writes = op.writes() || op.releases();
  switch (op.kind) {
    case OpKind::ThreadCreate: *writes = true; return kStartOf | op.aux;
    case OpKind::ThreadStart: *writes = false; return kStartOf | t;
    case OpKind::ThreadExit: *writes = true; return kExitOf | t;
    case OpKind::ThreadJoin:
    case OpKind::ThreadTryJoin: *writes = false; return kExitOf | op.aux;
    default: return op.object;
  }
}

void StateCache::clock_of(ThreadId t, const Op& op, std::vector<std::uint32_t>* vc) const {
  *vc = t < clocks_.size() ? clocks_[t] : std::vector<std::uint32_t>{};
  bool writes = false;
  if (const std::uint64_t k = object_key(t, op, &writes); k != 0) {
    auto it = objects_.find(k);
    if (it != objects_.end()) {
      join(*vc, it->second.last_write);
      if (writes) join(*vc, it->second.reads);
    }
  }
  if (!frees_.empty() || op.kind == OpKind::Free) join_blocks(op, vc);
  if (vc->size() <= t) vc->resize(t + 1, 0);
  (*vc)[t] = (t < counts_.size() ? counts_[t] : 0) + 1;
}

// A free writes every object in its block (dependence.hpp): it follows what touched them,
// and what touches them later follows it.
void StateCache::join_blocks(const Op& op, std::vector<std::uint32_t>* vc) const {
  if (op.kind == OpKind::Free) {
    const std::uint64_t end = op.object + op.aux;
    for (const auto& [key, o] : objects_)
      if (key >= op.object && key < end) {
        join(*vc, o.last_write);
        join(*vc, o.reads);
      }
  }
  bool writes = false;
  const std::uint64_t k = object_key(0, op, &writes);
  for (const FreedBlock& f : frees_)
    if ((k >= f.begin && k < f.end) ||
        (op.kind == OpKind::Free && op.object < f.end && f.begin < op.object + op.aux))
      join(*vc, f.clock);
}

std::uint64_t StateCache::event_hash(ThreadId t, const Op& op,
                                     const std::vector<std::uint32_t>& vc) const {
  std::uint64_t h = mix(mix(t, vc[t]), mix(static_cast<std::uint64_t>(op.kind), op.object));
  h = mix(h, op.aux);
  for (std::size_t u = 0; u < vc.size(); ++u)
    if (u != t && vc[u] != 0) h = mix(h, mix(u, vc[u]));
  return h;
}

void StateCache::apply(ThreadId t, const Op& op) {
  ensure_thread(t);
  std::vector<std::uint32_t> vc;
  clock_of(t, op, &vc);
  total_ += event_hash(t, op, vc);
  bool writes = false;
  if (const std::uint64_t k = object_key(t, op, &writes); k != 0) {
    ObjectState& o = objects_[k];
    if (writes) {
      o.last_write = vc;
      o.reads.clear();
    } else {
      join(o.reads, vc);
    }
  }
  if (op.kind == OpKind::Free) {
    const std::uint64_t end = op.object + op.aux;
    for (auto& [key, o] : objects_)
      if (key >= op.object && key < end) {
        o.last_write = vc;
        o.reads.clear();
      }
    frees_.push_back({op.object, end, vc});
  }
  clocks_[t] = std::move(vc);
  ++counts_[t];
}

void StateCache::scan(const Trace& trace, const ExecutionTree& tree, std::size_t first) {
  clocks_.clear();
  counts_.clear();
  objects_.clear();
  frees_.clear();
  total_ = 0;
  first_ = first;
  const auto records = tree.decisions();
  options_.assign(records.size() > first ? records.size() - first : 0, {});
  std::size_t applied = 0;  // trace steps folded into total_
  ThreadId last = kNoThread;
  std::vector<std::uint32_t> vc;
  for (std::size_t d = 0; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.kind == Decision::kValue) {
      // A data choice made during the step of the last thread decision.
      if (d >= first)
        for (std::uint32_t v = 0; v < r.options; ++v)
          options_[d - first].push_back(mix(total_ + mix(mix(last, 0x5eed), v), last));
      total_ += mix(mix(last, 0x5eed), r.choice);
      continue;
    }
    for (; applied < r.step && applied < trace.size(); ++applied)
      apply(trace[applied].thread, trace[applied].op);
    if (d >= first) {
      const auto enabled = tree.enabled(r);
      const auto ops = tree.next_ops(r);
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        const ThreadId u = enabled[i];
        const Op& op = i < ops.size() ? ops[i] : trace[r.step].op;
        clock_of(u, op, &vc);
        options_[d - first].push_back(mix(total_ + event_hash(u, op, vc), u));
      }
    }
    if (applied == r.step && applied < trace.size()) {
      apply(trace[applied].thread, trace[applied].op);
      ++applied;
    }
    last = r.choice;
  }
  for (; applied < trace.size(); ++applied) apply(trace[applied].thread, trace[applied].op);
}

bool StateCache::covered(std::uint64_t key, std::uint64_t cost) {
  auto [it, inserted] = seen_.try_emplace(key, cost);
  if (!inserted && it->second <= cost) {
    ++pruned_;
    return true;
  }
  it->second = cost;
  if (sharing_) {
    news_.push_back(key);
    news_.push_back(cost);
  }
  return false;
}

void StateCache::learn(std::uint64_t key, std::uint64_t cost) {
  auto [it, inserted] = seen_.try_emplace(key, cost);
  if (!inserted && cost < it->second) it->second = cost;
}

void StateCache::save(StateWriter& w) const {
  w.put(seen_.size());
  for (const auto& [key, cost] : seen_) {
    w.put(key);
    w.put(cost);
  }
  w.put(classes_.size());
  for (const auto& [key, count] : classes_) {
    w.put(key);
    w.put(count);
  }
  w.put(pruned_);
}

bool StateCache::load(StateReader& r) {
  const std::uint64_t states = r.get_count(2);
  seen_.reserve(states);
  for (std::uint64_t i = 0; i < states && r.ok(); ++i) {
    const std::uint64_t key = r.get();
    seen_[key] = r.get();
  }
  const std::uint64_t classes = r.get_count(2);
  classes_.reserve(classes);
  for (std::uint64_t i = 0; i < classes && r.ok(); ++i) {
    const std::uint64_t key = r.get();
    classes_[key] = static_cast<std::uint32_t>(r.get_at_most(0xffffffffu));
  }
  pruned_ = r.get();
  return r.ok();
}

}  // namespace weft
