#pragma once
// Semaphores, barriers and once-flags: objects whose state is a small counter.
#include <cstdint>

#include "core/op.hpp"
#include "runtime/object_map.hpp"

namespace weft::rt {

class SemaphoreModel {
 public:
  void reset() { sems_.clear(); }
  void init(std::uintptr_t s, unsigned value) { sems_.at(s) = value; }
  bool known(std::uintptr_t s) const { return sems_.contains(s); }
  bool can_wait(std::uintptr_t s) const {
    const unsigned* v = sems_.find(s);
    return v != nullptr && *v > 0;
  }
  void wait(std::uintptr_t s) { --sems_.at(s); }
  void post(std::uintptr_t s) { ++sems_.at(s); }
  unsigned value(std::uintptr_t s) const {
    const unsigned* v = sems_.find(s);
    return v == nullptr ? 0 : *v;
  }

 private:
  ObjectMap<unsigned> sems_;
};

class BarrierModel {
 public:
  void reset() { barriers_.clear(); }
  void init(std::uintptr_t b, unsigned count) { barriers_.at(b) = State{count, 0, 0}; }
  bool known(std::uintptr_t b) const { return barriers_.contains(b); }
  // Arrives; returns the generation to wait for, and whether this arrival released it.
  std::uint64_t arrive(std::uintptr_t b, bool* last) {
    State& s = barriers_.at(b);
    std::uint64_t gen = s.generation;
    *last = ++s.arrived >= s.count;
    if (*last) {
      s.arrived = 0;
      ++s.generation;
    }
    return gen;
  }
  bool passed(std::uintptr_t b, std::uint64_t gen) const {
    const State* s = barriers_.find(b);
    return s != nullptr && s->generation > gen;
  }

 private:
  struct State {
    unsigned count = 1;
    unsigned arrived = 0;
    std::uint64_t generation = 0;
  };
  ObjectMap<State> barriers_;
};

class OnceModel {
 public:
  enum class Phase : std::uint8_t { kNotRun, kRunning, kDone };
  void reset() {
    onces_.clear();
    generation_ = generation_ % (1u << 28) + 1;
  }
  // Which execution this is, as weft writes it into a flag it ran (never 0).
  std::uint32_t generation() const { return generation_; }
  Phase phase(std::uintptr_t o) const {
    const Phase* p = onces_.find(o);
    return p == nullptr ? Phase::kNotRun : *p;
  }
  void set(std::uintptr_t o, Phase p) { onces_.at(o) = p; }
  bool empty() const { return onces_.empty(); }
  // Memory freed: a once flag made there later is a new one, not yet run.
  void forget(std::uintptr_t begin, std::size_t size) { onces_.erase_range(begin, begin + size); }

 private:
  ObjectMap<Phase> onces_;
  std::uint32_t generation_ = 1;
};

}  // namespace weft::rt
