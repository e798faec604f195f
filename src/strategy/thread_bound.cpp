#include "strategy/thread_bound.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace weft {

namespace {

bool voluntary_yield(const Op& op) { return op.kind == OpKind::Yield || op.kind == OpKind::Sleep; }

}  // namespace

ThreadBoundStrategy::ThreadBoundStrategy(std::uint64_t seed, std::uint32_t threads,
                                         std::uint32_t preemptions, std::uint64_t steps)
    : seed_(seed), t_(threads < 2 ? 2 : threads), c_(preemptions), fixed_steps_(steps) {
  changes_.reserve(c_);
  rank_.reserve(16 + c_);
  item_.reserve(16);
  yields_.reserve(16);
}

std::uint64_t ThreadBoundStrategy::permutations_needed(std::uint64_t n, std::uint32_t t,
                                                       double eps) {
  if (t > n) return 0;  // no t of them to order
  if (t <= 1) return 1;
  double factorial = 1;
  for (std::uint32_t i = 2; i <= t; ++i) factorial *= i;
  // Proof of Lemma 4.1: a fixed ordering of a fixed t-subset is missed by m random
  // permutations with probability (1 - 1/t!)^m <= e^(-m/t!); there are C(n,t) t! <= n^t
  // of them, so m = t! (t ln n + ln(1/eps)) leaves all of them missed with probability
  // at most eps.
  const double m = factorial * (t * std::log(static_cast<double>(n)) - std::log(eps));
  return static_cast<std::uint64_t>(std::ceil(m));
}

std::uint64_t ThreadBoundStrategy::executions_needed(std::uint64_t items, std::uint32_t t) const {
  const std::uint64_t te = std::min<std::uint64_t>(t, items);
  if (te <= 1) return 1;
  if (te == 2) return 2;  // the increasing and the decreasing order
  return 2 + permutations_needed(items, static_cast<std::uint32_t>(te));
}

std::uint64_t ThreadBoundStrategy::steps() const {
  if (fixed_steps_ != 0) return fixed_steps_;
  return longest_ != 0 ? longest_ : kDefaultSteps;
}

bool ThreadBoundStrategy::next_execution() {
  const std::uint64_t i = shard_.global(executions_++);
  rng_.reseed(execution_seed(seed_, i));
  order_ = i == 0 ? Order::kIncreasing : i == 1 ? Order::kDecreasing : Order::kRandom;
  rank_.clear();
  threads_ = 0;
  changes_.clear();
  const std::uint64_t k = steps();
  for (std::uint32_t j = 0; j < c_; ++j) changes_.push_back(1 + rng_.below(k));
  std::sort(changes_.begin(), changes_.end());
  next_change_ = 0;
  return true;
}

// A new fragment: the next item of the permutation, inserted among the items so far at
// the top (increasing order), the bottom (decreasing) or a uniformly random place, which
// keeps the items' ranks a uniformly random permutation whatever their number.
void ThreadBoundStrategy::add_fragment(ThreadId t) {
  const auto m = static_cast<std::uint32_t>(rank_.size());
  std::uint32_t place = 0;
  if (order_ == Order::kIncreasing)
    place = m;
  else if (order_ == Order::kRandom && m != 0)
    place = static_cast<std::uint32_t>(rng_.below(m + 1));
  for (std::uint32_t& r : rank_)
    if (r >= place) ++r;
  rank_.push_back(place);
  item_[t] = m;
}

void ThreadBoundStrategy::lower(ThreadId t) {
  const std::uint32_t r = rank_[item_[t]];
  for (std::uint32_t& other : rank_)
    if (other < r) ++other;
  rank_[item_[t]] = 0;
}

ThreadId ThreadBoundStrategy::choose(const SchedulingPoint& p) {
  // Threads are numbered in creation order: the new ones are the next ids.
  const std::size_t n = std::max<std::size_t>(p.thread_count, p.enabled.back() + 1);
  if (item_.size() < n) {
    item_.resize(n);
    yields_.resize(n);
  }
  while (threads_ < n) {
    yields_[threads_] = 0;
    add_fragment(threads_++);
  }
  // Change point j fires once its step has run: the thread that ran it starts its next
  // fragment (its priority becomes pi_{n+j}).
  while (next_change_ < changes_.size() && changes_[next_change_] <= p.step) {
    if (p.current != kNoThread && p.current < threads_) add_fragment(p.current);
    ++next_change_;
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < p.enabled.size(); ++i)
    if (priority(p.enabled[i]) > priority(p.enabled[best])) best = i;
  const ThreadId chosen = p.enabled[best];
  if (voluntary_yield(p.next_ops[best]) && ++yields_[chosen] >= kYieldsBeforeLowering) {
    lower(chosen);
    yields_[chosen] = 0;
  }
  return chosen;
}

std::size_t ThreadBoundStrategy::choose_value(std::size_t n) {
  return n <= 1 ? 0 : static_cast<std::size_t>(rng_.below(n));
}

void ThreadBoundStrategy::execution_done(const Trace& trace) {
  longest_ = std::max<std::uint64_t>(longest_, trace.size());
  max_threads_ = std::max<std::uint64_t>(max_threads_, threads_);
  ++done_;
}

Coverage ThreadBoundStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kThreadBound;
  c.executions = done_;
  const std::string name = "tb:" + std::to_string(t_) + (c_ ? ":" + std::to_string(c_) : "");
  if (max_threads_ == 0) {
    c.summary = name + ": no execution yet";
    return c;
  }
  const std::uint64_t items = max_threads_ + c_;
  for (std::uint32_t t = 2; t <= t_; ++t)
    if (done_ >= executions_needed(items, t)) c.bound = t;
  c.complete = c.bound == static_cast<std::int64_t>(t_);
  const std::string what = c_ == 0 ? std::to_string(max_threads_) + " threads"
                                   : std::to_string(items) + " thread fragments (" +
                                         std::to_string(max_threads_) + " threads, " +
                                         std::to_string(c_) + " preemptions at random steps)";
  const std::uint64_t te = std::min<std::uint64_t>(t_, items);
  const std::uint64_t needed = executions_needed(items, t_);
  c.summary = name + ": " + std::to_string(done_) + " executions; ";
  if (c.bound < 0) {
    c.summary += "no thread ordering covered yet";
  } else {
    const std::uint64_t k = std::min<std::uint64_t>(c.bound, items);
    c.summary += "every ordering of every " + std::to_string(k) + " of the " + what +
                 " has been the priority order" + (k >= 3 ? " with probability >= 0.99" : "");
  }
  if (!c.complete && needed >= 2)
    c.summary += "; " + std::to_string(te) + "-orderings need " + std::to_string(needed) +
                 " executions (Lemma 4.1: 2 fixed + " + std::to_string(needed - 2) +
                 " random permutations for 99%)";
  return c;
}

}  // namespace weft
