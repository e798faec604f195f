#include "strategy/schedule_simplifier.hpp"

#include <algorithm>

namespace weft {

namespace {

constexpr std::size_t kNone = ~std::size_t{0};

bool before(const ThreadSwitch& a, const ThreadSwitch& b) {
  return a.from != b.from ? a.from < b.from : a.after < b.after;
}

}  // namespace

SwitchSchedule SwitchSchedule::of(const std::vector<Decision>& decisions) {
  SwitchSchedule s;
  std::vector<std::uint32_t> steps;
  ThreadId last = kNoThread;
  for (const Decision& d : decisions) {
    if (d.kind == Decision::kValue) {
      s.values.push_back(d.value);
      continue;
    }
    if (d.value != last) s.switches.push_back({last, last == kNoThread ? 0 : steps[last], d.value});
    if (d.value >= steps.size()) steps.resize(d.value + 1);
    ++steps[d.value];
    last = d.value;
  }
  return s;
}

void ScheduleSimplifier::improved(const std::vector<Decision>& executed) {
  current_ = executed;
  blocks_.clear();
  for (const Decision& d : executed) {
    if (!blocks_.empty() && d.kind == Decision::kThread && blocks_.back().decision == d)
      ++blocks_.back().count;
    else
      blocks_.push_back({d, 1});
  }
  merge_ = 0;
  down_ = false;
  drop_ = SwitchSchedule::of(executed).switches.size();
  swap_ = 0;
}

void ScheduleSimplifier::expand(const std::vector<Block>& blocks, std::vector<Decision>* out) {
  out->clear();
  for (const Block& b : blocks) out->insert(out->end(), b.count, b.decision);
}

bool ScheduleSimplifier::next(std::vector<Decision>* candidate) {
  return next_merge(candidate) || next_drop(candidate) || next_swap(candidate);
}

std::size_t ScheduleSimplifier::partner(std::size_t i) const {
  if (blocks_[i].decision.kind != Decision::kThread) return kNone;
  for (std::size_t k = i + 1; k < blocks_.size(); ++k)
    if (blocks_[k].decision == blocks_[i].decision) return k > i + 1 ? k : kNone;
  return kNone;
}

bool ScheduleSimplifier::next_merge(std::vector<Decision>* candidate) {
  while (merge_ < blocks_.size()) {
    const std::size_t j = partner(merge_);
    if (j == kNone) {
      ++merge_;
      down_ = false;
      continue;
    }
    std::vector<Block> b = blocks_;
    if (!down_) {  // the later block follows the earlier: no switch away from its thread
      const Block moved = b[j];
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(j));
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(merge_ + 1), moved);
      down_ = true;
    } else {  // the earlier block waits for the later: the others run first
      const Block moved = b[merge_];
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(j), moved);
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(merge_));
      down_ = false;
      ++merge_;
    }
    expand(b, candidate);
    return true;
  }
  return false;
}

bool ScheduleSimplifier::next_drop(std::vector<Decision>* candidate) {
  if (drop_ <= 1) return false;  // (switch 0 is the first step's: nothing to drop)
  --drop_;
  // The decisions with switch drop_ gone: from there its thread's predecessor goes on for
  // as long as the switched-to block lasted.
  std::size_t seen = 0;
  ThreadId last = kNoThread, replaced = kNoThread, by = kNoThread;
  candidate->clear();
  for (const Decision& d : current_) {
    if (d.kind == Decision::kValue) {
      candidate->push_back(d);
      continue;
    }
    if (d.value != last) {
      if (seen++ == drop_) {
        replaced = d.value;
        by = last;
      } else {
        replaced = kNoThread;
      }
    }
    last = d.value;
    candidate->push_back(d.value == replaced && by != kNoThread ? Decision{Decision::kThread, by}
                                                                : d);
  }
  return true;
}

bool ScheduleSimplifier::next_swap(std::vector<Decision>* candidate) {
  for (; swap_ + 1 < blocks_.size(); ++swap_) {
    const Block& a = blocks_[swap_];
    const Block& b = blocks_[swap_ + 1];
    if (a.decision.kind != Decision::kThread || b.decision.kind != Decision::kThread) continue;
    std::vector<Block> swapped = blocks_;
    std::swap(swapped[swap_], swapped[swap_ + 1]);
    ++swap_;
    expand(swapped, candidate);
    return true;
  }
  return false;
}

ThreadId GuidedStrategy::choose(const SchedulingPoint& p) {
  if (steps_.empty())  // the first step: switches sorted for lookup
    std::sort(schedule_.switches.begin(), schedule_.switches.end(), before);
  ThreadId chosen = default_choice(p);
  ThreadSwitch key;
  key.from = p.current;
  key.after = p.current < steps_.size() ? steps_[p.current] : 0;
  const auto it =
      std::lower_bound(schedule_.switches.begin(), schedule_.switches.end(), key, before);
  if (it != schedule_.switches.end() && it->from == key.from && it->after == key.after &&
      p.is_enabled(it->to))
    chosen = it->to;
  if (chosen >= steps_.size()) steps_.resize(chosen + 1);
  ++steps_[chosen];
  return chosen;
}

std::size_t GuidedStrategy::choose_value(std::size_t n) {
  if (value_ >= schedule_.values.size()) return 0;
  const std::uint32_t v = schedule_.values[value_++];
  return v < n ? v : 0;
}

}  // namespace weft
