#include "strategy/sleep_sets.hpp"

#include <algorithm>

#include "strategy/dependence.hpp"

namespace weft {

void SleepSets::start_execution() {
  now_.clear();
  first_.clear();
  pool_.clear();
  rest_.clear();
  blocked_step_ = npos;
  blocked_decision_ = npos;
  blocked_alternative_ = kNoThread;
}

bool SleepSets::sleeping(ThreadId t) const {
  for (const Sleeper& s : now_)
    if (s.thread == t) return true;
  return false;
}

ThreadId SleepSets::fallback(const SchedulingPoint& p) const {
  const ThreadId preferred = default_choice(p);
  if (now_.empty() || !sleeping(preferred)) return preferred;
  // Round robin from the preferred thread on.
  const auto start = std::find(p.enabled.begin(), p.enabled.end(), preferred);
  const std::size_t n = p.enabled.size();
  const std::size_t at = static_cast<std::size_t>(start - p.enabled.begin());
  for (std::size_t k = 1; k < n; ++k) {
    const ThreadId t = p.enabled[(at + k) % n];
    if (!sleeping(t)) return t;
  }
  return preferred;
}

void SleepSets::after_thread_decision(const SchedulingPoint& p,
                                      std::span<const std::uint32_t> siblings, ThreadId pick,
                                      std::span<const ExecutionTree::SiblingMove> moves) {
  for (std::size_t i = 0; i < siblings.size(); ++i) {
    const std::uint32_t s = siblings[i];
    if (s == pick || sleeping(s)) continue;
    const Op* op = p.next_op(s);
    if (op == nullptr || (!moves.empty() && !moves[i].known)) continue;
    Sleeper sleeper{s, *op};
    if (!moves.empty()) {
      sleeper.rest_first = static_cast<std::uint32_t>(rest_.size());
      sleeper.rest_count = static_cast<std::uint32_t>(moves[i].rest.size());
      rest_.insert(rest_.end(), moves[i].rest.begin(), moves[i].rest.end());
    }
    now_.push_back(sleeper);
  }
  first_.push_back(static_cast<std::uint32_t>(pool_.size()));
  for (const Sleeper& s : now_) pool_.push_back(s.thread);
  if (sleeping(pick) && blocked_step_ == npos) {
    blocked_step_ = p.step;
    blocked_decision_ = first_.size() - 1;
    if (const ThreadId awake = fallback(p); !sleeping(awake)) blocked_alternative_ = awake;
  }
  if (blocked_step_ == p.step) ++blocked_executions_;

  const Op* op = p.next_op(pick);
  next_.clear();
  for (const Sleeper& s : now_)
    if (s.thread != pick && op != nullptr && !woken_by(s, pick, *op)) next_.push_back(s);
  now_.swap(next_);
}

bool SleepSets::woken_by(const Sleeper& s, ThreadId pick, const Op& op) const {
  if (dependent(s.thread, s.op, pick, op)) return true;
  for (std::uint32_t i = 0; i < s.rest_count; ++i)
    if (dependent(s.thread, rest_[s.rest_first + i], pick, op)) return true;
  return false;
}

void SleepSets::after_value_decision() {
  first_.push_back(static_cast<std::uint32_t>(pool_.size()));
  for (const Sleeper& s : now_) pool_.push_back(s.thread);
}

bool SleepSets::asleep(std::size_t decision, ThreadId t) const {
  if (decision >= first_.size()) return false;
  const std::size_t end = decision + 1 < first_.size() ? first_[decision + 1] : pool_.size();
  for (std::size_t i = first_[decision]; i < end; ++i)
    if (pool_[i] == t) return true;
  return false;
}

}  // namespace weft
