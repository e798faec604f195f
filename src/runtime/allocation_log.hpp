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

// [begin, end) of the program's writable data (its globals), to search for pointers.
struct DataRange {
  std::uintptr_t begin = 0, end = 0;
};

struct AllocationLog {
  static constexpr std::uint64_t kCapacity = 1u << 14;
  static constexpr std::uint32_t kMaxHeld = 64;

  std::atomic<std::uint64_t> count{0};  // ever added this execution
  Allocation entries[kCapacity];
  std::uint32_t nheld = 0;
  GlobalPointer held[kMaxHeld];

  void clear() {
    count.store(0, std::memory_order_relaxed);
    nheld = 0;
  }
  // Only the baton holder adds: no two writers at once.
  void add(const Allocation& a) {
    const std::uint64_t n = count.load(std::memory_order_relaxed);
    entries[n % kCapacity] = a;
    count.store(n + 1, std::memory_order_release);
  }

  // The blocks `bug`'s steps, blocked threads and race touched, in allocation order: for
  // each step, the newest block allocated before it that holds its address.
  std::vector<Allocation> touched_by(const BugRecord& bug) const;
  // Notes the words of `data` that hold the start of a block in the log (the first
  // kMaxHeld). Async-signal-safe: the end of an execution that crashed calls it.
  void note_held(const DataRange* data, std::size_t ranges);
  std::vector<GlobalPointer> held_by() const {
    return {held, held + (nheld < kMaxHeld ? nheld : kMaxHeld)};
  }
};

}  // namespace weft::rt
