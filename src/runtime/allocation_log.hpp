#pragma once
// The heap blocks the program allocated in the current execution, newest last. It lives in
// memory shared with the supervising process, which reads it when the execution shows a
// bug: the report then names a heap object by where it was allocated rather than by an
// address that means nothing to a person. A ring: the oldest entries are overwritten.
#include <atomic>
#include <cstdint>
#include <vector>

#include "core/run_record.hpp"

namespace weft::rt {

struct AllocationLog {
  static constexpr std::uint64_t kCapacity = 1u << 14;

  std::atomic<std::uint64_t> count{0};  // ever added this execution
  Allocation entries[kCapacity];

  void clear() { count.store(0, std::memory_order_relaxed); }
  // Only the baton holder adds: no two writers at once.
  void add(const Allocation& a) {
    const std::uint64_t n = count.load(std::memory_order_relaxed);
    entries[n % kCapacity] = a;
    count.store(n + 1, std::memory_order_release);
  }

  // The blocks `bug`'s steps, blocked threads and race touched, in allocation order: for
  // each step, the newest block allocated before it that holds its address.
  std::vector<Allocation> touched_by(const BugRecord& bug) const;
};

}  // namespace weft::rt
