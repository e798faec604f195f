#pragma once
// The happens-before edges between threads that pictures of an interleaving draw (trace
// events, the HTML page): a step after the last conflicting step of another thread on the
// same object, a thread's create before its start, its exit before its join.
#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/event.hpp"

namespace weft {

// (from, to) step indices, in the order of `to`.
inline std::vector<std::pair<std::size_t, std::size_t>> happens_before_arrows(
    const std::vector<Event>& events) {
  std::vector<std::pair<std::size_t, std::size_t>> arrows;
  std::unordered_map<std::uintptr_t, std::size_t> last_on_object;
  std::unordered_map<ThreadId, std::size_t> created_at, exited_at;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    switch (e.op.kind) {
      case OpKind::ThreadCreate: created_at[e.op.aux] = i; break;
      case OpKind::ThreadStart:
        if (auto it = created_at.find(e.thread); it != created_at.end())
          arrows.emplace_back(it->second, i);
        break;
      case OpKind::ThreadExit: exited_at[e.thread] = i; break;
      case OpKind::ThreadJoin:
      case OpKind::ThreadTryJoin:
        if (auto it = exited_at.find(e.op.aux); it != exited_at.end())
          arrows.emplace_back(it->second, i);
        break;
      default: break;
    }
    if (e.op.object != 0) {
      auto it = last_on_object.find(e.op.object);
      if (it != last_on_object.end()) {
        const Event& before = events[it->second];
        if (before.thread != e.thread && conflicting(before.op, e.op))
          arrows.emplace_back(it->second, i);
      }
      last_on_object[e.op.object] = i;
    }
  }
  return arrows;
}

}  // namespace weft
