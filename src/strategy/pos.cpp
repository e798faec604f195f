#include "strategy/pos.hpp"

#include <algorithm>
#include <string>

namespace weft {

namespace {

// A thread's pending event is the same event while it has not run: it may still be
// re-announced differently (a wait that became a wake-up), which makes it a new event.
bool same_event(const Op& a, const Op& b) {
  return a.kind == b.kind && a.object == b.object && a.pc == b.pc;
}

bool voluntary_yield(const Op& op) { return op.kind == OpKind::Yield || op.kind == OpKind::Sleep; }

}  // namespace

PosStrategy::PosStrategy(std::uint64_t seed, bool relax_reads, std::uint32_t fairness_yields)
    : SamplingStrategy(seed), relax_reads_(relax_reads), fairness_yields_(fairness_yields) {
  pending_.reserve(16);
}

bool PosStrategy::next_execution() {
  draw_next_execution();
  for (Pending& e : pending_) e.assigned = false;
  yields_ = 0;
  resets_ = 0;
  return true;
}

bool PosStrategy::races(const Op& pending, const Op& ran) const {
  if (relax_reads_) return conflicting(pending, ran);
  return pending.object != 0 && pending.object == ran.object;
}

ThreadId PosStrategy::choose(const SchedulingPoint& p) {
  const std::size_t n = std::max<std::size_t>(p.thread_count, p.enabled.back() + 1);
  if (pending_.size() < n) pending_.resize(n);

  // Algorithm 4, lines 6-9: a pending event without a priority draws one; the highest
  // runs (a tie, of probability 2^-64, goes to the lower thread id).
  std::size_t best = 0;
  for (std::size_t i = 0; i < p.enabled.size(); ++i) {
    Pending& e = pending_[p.enabled[i]];
    if (!e.assigned || !same_event(e.op, p.next_ops[i])) {
      e.priority = rng_.next();
      e.op = p.next_ops[i];
      e.assigned = true;
    }
    if (e.priority > pending_[p.enabled[best]].priority) best = i;
  }
  const ThreadId chosen = p.enabled[best];
  const Op ran = p.next_ops[best];

  // Lines 14-18: the events that race with the one about to run lose their priorities,
  // enabled or not (a thread blocked on the object keeps its pending event). The chosen
  // thread's next event is a new one.
  pending_[chosen].assigned = false;
  for (Pending& e : pending_)
    if (e.assigned && races(e.op, ran)) e.assigned = false;

  // Fairness workaround (section 5). POS is only probabilistically fair: a spin loop's
  // yields race with nothing, so each of its new events draws a fresh priority while the
  // thread it waits for keeps the low priority that made it wait; that thread runs only
  // once some fresh draw falls below it, and the expected wait is unbounded (the
  // probability of waiting k more steps decays like 1/k, not geometrically). Redrawing
  // every priority every kFairnessYields voluntary yields bounds such waits, as the
  // paper's implementation does every 10^3 sched_yield() calls; yields are rare outside
  // spin loops, so sampling elsewhere is unaffected.
  if (fairness_yields_ != 0 && voluntary_yield(ran) && ++yields_ >= fairness_yields_) {
    for (Pending& e : pending_) e.assigned = false;
    yields_ = 0;
    ++resets_;
  }
  return chosen;
}

Coverage PosStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kNone;
  c.executions = executions_;
  c.summary = std::string(relax_reads_ ? "pos*" : "pos") + ": " + std::to_string(executions_) +
              " executions; partial-order sampling, no coverage guarantee (each partial "
              "order's probability is bounded by the paper's Theorem 1)";
  return c;
}

}  // namespace weft
