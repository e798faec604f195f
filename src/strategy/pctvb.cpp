#include "strategy/pctvb.hpp"

#include <algorithm>
#include <string>

namespace weft {

PctvbStrategy::PctvbStrategy(std::uint64_t seed, std::uint32_t depth, std::uint32_t variables)
    : SamplingStrategy(seed),
      depth_(depth < 1 ? 1 : depth),
      variables_(variables < 1 ? 1 : variables),
      priorities_(depth_) {}

bool PctvbStrategy::next_execution() {
  draw_next_execution();
  priorities_.reset();
  chosen_.clear();
  accesses_.clear();
  changes_.clear();
  lower_thread_ = kNoThread;
  // 0. v variables among the shared ones (all known ones while none is shared yet).
  std::vector<std::size_t> pool;
  for (std::size_t i = 0; i < vars_.size(); ++i)
    if (vars_[i].shared) pool.push_back(i);
  if (pool.empty())
    for (std::size_t i = 0; i < vars_.size(); ++i) pool.push_back(i);
  const std::size_t v = std::min<std::size_t>(variables_, pool.size());
  std::uint64_t total = 0;
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < v; ++i) {  // a partial Fisher-Yates shuffle
    std::swap(pool[i], pool[i + rng_.below(pool.size() - i)]);
    picked.push_back(pool[i]);
    chosen_.push_back(vars_[pool[i]].object);
    accesses_.push_back(0);
    total += vars_[pool[i]].max_accesses;
  }
  // 2. d-1 elements (x, j) drawn uniformly from the accesses the chosen variables had.
  for (std::uint32_t i = 1; i < depth_ && total > 0; ++i) {
    std::uint64_t r = rng_.below(total);
    std::size_t c = 0;
    while (r >= vars_[picked[c]].max_accesses) r -= vars_[picked[c++]].max_accesses;
    changes_.push_back({c, static_cast<std::uint32_t>(r + 1), i});
  }
  return true;
}

ThreadId PctvbStrategy::choose(const SchedulingPoint& p) {
  priorities_.learn_threads(p, rng_);
  if (lower_thread_ != kNoThread) {  // the access it just made was a change point
    priorities_.lower(lower_thread_, lower_priority_);
    lower_thread_ = kNoThread;
  }
  const ThreadId t = priorities_.highest(p);
  if (!chosen_.empty()) {
    const std::size_t at = static_cast<std::size_t>(
        std::find(p.enabled.begin(), p.enabled.end(), t) - p.enabled.begin());
    const Op& op = at < p.next_ops.size() ? p.next_ops[at] : Op{};
    if (is_memory_access(op.kind)) {
      auto it = std::find(chosen_.begin(), chosen_.end(), op.object);
      if (it != chosen_.end()) {
        const std::size_t c = static_cast<std::size_t>(it - chosen_.begin());
        const std::uint32_t n = ++accesses_[c];
        std::uint32_t priority = 0;  // of the points drawn twice, the last i wins (as PCT)
        for (const ChangePoint& cp : changes_)
          if (cp.chosen == c && cp.access == n) priority = std::max(priority, cp.priority);
        if (priority != 0) {
          lower_thread_ = t;
          lower_priority_ = priority;
        }
      }
    }
  }
  return t;
}

void PctvbStrategy::execution_done(const Trace& trace) {
  max_threads_ = std::max<std::uint64_t>(max_threads_, priorities_.threads());
  // 1. learn the variables and the most accesses each had in one execution.
  std::unordered_map<std::size_t, std::uint32_t> counts;
  for (const Event& e : trace.events()) {
    if (!is_memory_access(e.op.kind) || e.op.object == 0) continue;
    auto [it, fresh] = index_.try_emplace(e.op.object, vars_.size());
    if (fresh) vars_.push_back(Variable{e.op.object, 0, e.thread, false});
    Variable& var = vars_[it->second];
    var.shared |= var.first_thread != e.thread;
    ++counts[it->second];
  }
  for (const auto& [i, n] : counts) vars_[i].max_accesses = std::max(vars_[i].max_accesses, n);
}

Coverage PctvbStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kNone;
  c.executions = executions_;
  std::size_t shared = 0;
  for (const Variable& v : vars_) shared += v.shared;
  c.summary = "pctvb:" + std::to_string(depth_) + "," + std::to_string(variables_) + ": " +
              std::to_string(executions_) + " executions over " + std::to_string(shared) +
              " shared variables; each finds a depth-" + std::to_string(depth_) + " bug on " +
              std::to_string(variables_) +
              " variables with probability >= 1/(C(V,v)*n*K^(d-1)) (V variables, n=" +
              std::to_string(std::max<std::uint64_t>(max_threads_, 1)) +
              " threads, K: the chosen variables' accesses)";
  return c;
}

}  // namespace weft
