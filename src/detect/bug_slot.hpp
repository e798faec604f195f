#pragma once
// One bug, as a fixed-size record that can be filled from a signal handler and read by
// the supervising process (it lives in memory shared with it).
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/run_record.hpp"
#include "detect/stack_sample.hpp"

namespace weft::detect {

struct BugSlot {
  static constexpr std::size_t kMaxBlocked = 64;

  std::atomic<int> state{0};  // 0 empty, 1 being written, 2 written
  int kind = 0;               // BugKind
  ThreadId thread = kNoThread;
  std::uintptr_t pc = 0;
  std::uintptr_t callers[StackSample::kFrames] = {};  // a crash's or a hang's (0: none)
  int line = 0;
  char message[1024] = {};
  char file[512] = {};
  std::uint32_t nblocked = 0;
  BlockedThread blocked[kMaxBlocked];
  bool has_race = false;
  DataRace race;
  Misuse misuse;

  // The first bug wins (a second thread may crash while the first is being reported).
  // Async-signal-safe.
  bool claim() {
    int expected = 0;
    return state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel);
  }
  void publish() { state.store(2, std::memory_order_release); }
  bool written() const { return state.load(std::memory_order_acquire) == 2; }
};

// Async-signal-safe string helpers for filling slots.
void copy_text(char* dst, std::size_t cap, const char* src, std::size_t len = ~std::size_t{0});
void append_text(char* dst, std::size_t cap, const char* src);
void append_hex(char* dst, std::size_t cap, std::uintptr_t v);
void append_dec(char* dst, std::size_t cap, std::uint64_t v);

}  // namespace weft::detect
