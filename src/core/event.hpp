#pragma once
// What happened at one step of an execution, and the whole execution as a trace.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/op.hpp"

namespace weft {

inline constexpr std::size_t kCallerFrames = 3;

enum EventFlag : std::uint8_t {
  kPreemption = 1u << 0,   // the previous thread was still enabled and another ran
  kTimedOut = 1u << 1,     // a timed wait that completed by timing out
  kFailed = 1u << 2,       // a try-operation that did not acquire
  kYielded = 1u << 3,      // the thread yielded (or was seen spinning): fairness holds it back
  kSpurious = 1u << 4,     // a condition variable or futex wait woke with nobody waking it
  kUnchanged = 1u << 5,    // a read-modify-write that left memory as it was (a failed CAS,
                           // an exchange of the same value): what a spin does, not work
  kEndsProcess = 1u << 6,  // the execution ended right after this step (its thread failed:
                           // an assertion, a crash): like a process exit, it conflicts with
                           // every other thread's next step
  kInRegion = 1u << 7,     // taken inside code run as if atomic (--no-preempt-in): the
                           // other threads were held back, so what it races with is
                           // reversed before the region's thread entered it
};

// Which of an event's values are known (a memory access of at most 8 bytes).
enum EventValue : std::uint16_t {
  kValueBefore = 1u << 0,  // `before`: what the access found there (what a read read)
  kValueAfter = 1u << 1,   // `after`: what it left there (what a write wrote), read at the
                           // next step, before any other thread ran; unknown when the
                           // execution ended first (the access was the failure)
};

struct Event {
  ThreadId thread = kNoThread;
  std::uint8_t flags = 0;    // EventFlag bits
  std::uint8_t enabled = 0;  // how many threads were enabled (saturates at 255)
  std::uint16_t values = 0;  // EventValue bits
  Op op;
  // Callers of op.pc, innermost first, from the instrumented shadow stack (0 = unknown):
  // lets a report show the user's line rather than a libstdc++ header's.
  std::uintptr_t callers[kCallerFrames] = {};
  // The memory's bytes before and after the access, as an integer of op.size bytes
  // (little-endian), when `values` says so: reports show `read count -> 0`.
  std::uint64_t before = 0, after = 0;
};

// Whether `e` is a write of a scalar whose value is read back after it (at the thread's
// next step: a plain store passes no call weft sees once done; an atomic one's value is
// noted by its interceptor).
inline bool reads_value_after(const Event& e) {
  return e.op.kind == OpKind::Write && e.op.size != 0 && e.op.size <= 8;
}

// The step ends the process: an exit, or the last step before a failure.
inline bool ends_process(const Event& e) {
  return e.op.kind == OpKind::ProcessExit || (e.flags & kEndsProcess) != 0;
}

// A read-only view of one execution's events, in step order. Storage belongs to the
// runtime (it lives in memory shared with the supervising process).
class Trace {
 public:
  Trace() = default;
  Trace(const Event* events, std::size_t size, std::span<const Event> unfinished = {})
      : events_(events, size), unfinished_(unfinished) {}
  std::span<const Event> events() const { return events_; }
  // The step each thread the execution left unfinished would have taken next, not taken:
  // a deadlock's blocked waits, the threads an exit or a failure ended. Partial-order
  // reduction reverses races with them (a blocked lock with the lock its holder took).
  // Empty where the runtime did not say.
  std::span<const Event> unfinished() const { return unfinished_; }
  std::size_t size() const { return events_.size(); }
  const Event& operator[](std::size_t i) const { return events_[i]; }
  std::size_t preemptions() const {
    std::size_t n = 0;
    for (const Event& e : events_) n += (e.flags & kPreemption) != 0;
    return n;
  }

 private:
  std::span<const Event> events_;
  std::span<const Event> unfinished_;
};

}  // namespace weft
