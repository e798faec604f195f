#pragma once
// What a strategy sees when it must choose who runs next.
#include <cstddef>
#include <span>

#include "core/op.hpp"

namespace weft {

struct SchedulingPoint {
  std::size_t step = 0;               // index of the step about to be taken
  ThreadId current = kNoThread;       // the thread that took the previous step
  bool current_enabled = false;       // may `current` continue without a preemption?
  std::span<const ThreadId> enabled;  // enabled threads, ascending, never empty
  std::span<const Op> next_ops;       // next_ops[i] is what enabled[i] will do
  std::size_t thread_count = 0;       // threads created so far, finished ones included
  // --no-preempt-in: code run as if atomic may exist (`regions`), and this point is inside
  // it (`in_region`: `current` goes on alone, its step part of the move it began).
  bool regions = false;
  bool in_region = false;

  bool is_enabled(ThreadId t) const {
    for (ThreadId e : enabled)
      if (e == t) return true;
    return false;
  }
  const Op* next_op(ThreadId t) const {
    for (std::size_t i = 0; i < enabled.size(); ++i)
      if (enabled[i] == t) return &next_ops[i];
    return nullptr;
  }
};

// The deterministic non-preemptive schedule that the execution tree's deltas are taken
// from (GAMBIT 3.2): keep running the current thread while it is enabled; when it blocks
// or ends, the next enabled thread in round-robin order after it.
inline ThreadId default_choice(const SchedulingPoint& p) {
  if (p.current_enabled) return p.current;
  if (p.current != kNoThread)
    for (ThreadId t : p.enabled)
      if (t > p.current) return t;
  return p.enabled.front();
}

}  // namespace weft
