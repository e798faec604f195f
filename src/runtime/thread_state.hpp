#pragma once
// Everything the runtime knows about one controlled thread of the current execution.
#include <poll.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/event.hpp"
#include "core/op.hpp"

namespace weft::rt {

inline constexpr std::uint32_t kShadowDepth = 64;

struct ThreadState {
  // The baton: 1 when this thread may run. Only the holder of the baton touches any
  // runtime state, so the rest of this struct needs no synchronisation.
  alignas(64) std::atomic<std::uint32_t> baton{0};

  ThreadId id = kNoThread;
  Op pending;  // the operation it will perform when next chosen
  bool finished = false;
  bool detached = false;
  bool joined = false;
  bool adopted = false;    // a process's own main thread (whole-program mode)
  bool timed = false;      // the pending wait may complete by timing out
  bool timed_out = false;  // ...and it did
  bool woken = false;      // a blocking wait (cond, futex, barrier) was satisfied
  // An FdWait for any of several descriptors (poll, select, epoll): the set (empty: the
  // op's one descriptor). Mutable: checking readiness writes revents.
  mutable std::vector<pollfd> poll_set;
  // Set by an interposed call that calls another (thrd_create calls pthread_create): where
  // the program called the first, for program_pc.
  std::uintptr_t call_pc = 0;
  // While weft reads a program's object for an interposed call (a mutex's type): where the
  // program called, so that a fault there (the object's memory unmapped) is reported at
  // that call rather than in weft's source. 0 otherwise.
  std::uintptr_t reading_for = 0;
  // pthread_cancel: requested, and whether the thread disabled cancellation (deferred
  // cancellation only: acted on at the cancellation points weft models).
  bool cancel_pending = false;
  bool cancel_disabled = false;
  // A cancellation request it must act on at its next cancellation point.
  bool cancelling() const { return cancel_pending && !cancel_disabled; }
  std::uintptr_t wait_mutex = 0;      // condition variable waits: the mutex to reacquire
  std::uint64_t wait_generation = 0;  // barrier waits
  // The objects its last plain reads read (Controller::plain_spin).
  std::uint32_t nspin_objects = 0;
  std::uintptr_t spin_objects[3] = {};

  pthread_t os{};
  int tid = 0;  // kernel thread id (for a supervisor's signals)
  // Its carrier has not been woken yet: that happens when it is first chosen, so that a
  // new thread costs no context switch before then.
  bool carrier_asleep = false;
  void* (*start)(void*) = nullptr;
  void* arg = nullptr;
  void* retval = nullptr;

  sigset_t program_mask{};  // its signal mask as the program set it (signals.hpp)
  int runtime_depth = 0;    // > 0 while inside weft: interposed calls pass through
  // Plain accesses since its last scheduling point or failed spin window, and windows
  // since its last scheduling point (Controller::plain_spin): next to runtime_depth,
  // which every instrumented access touches too.
  std::uint32_t unsynced = 0;
  std::uint32_t long_run = 0;
  // ThreadSanitizer annotations: AnnotateIgnoreReads/WritesBegin depths (those plain
  // accesses are not checked for races), and the depth inside an annotated mutex's own
  // code (__tsan_mutex_pre_lock to post_lock...), whose model stands for it: its
  // accesses are neither scheduling points nor checked.
  std::uint16_t ignore_reads = 0, ignore_writes = 0;
  std::uint32_t mutex_internals = 0;
  std::uint32_t shadow_depth = 0;
  std::uintptr_t shadow[kShadowDepth] = {};  // caller pcs from __tsan_func_entry
  // Each of those frames' stack pointer at its __tsan_func_entry call (0: unknown), where
  // its locals begin, and the call's return address, a pc in its function: for a report
  // to name the locals (Controller::note_frames).
  std::uintptr_t shadow_sp[kShadowDepth] = {};
  std::uintptr_t shadow_entry[kShadowDepth] = {};
  // The innermost kCallerFrames callers on the shadow stack, innermost first (0: none):
  // what a step or an allocation records of where it came from.
  void caller_frames(std::uintptr_t out[kCallerFrames]) const {
    const std::uint32_t depth = shadow_depth < kShadowDepth ? shadow_depth : kShadowDepth;
    for (std::size_t i = 0; i < kCallerFrames; ++i) out[i] = i < depth ? shadow[depth - 1 - i] : 0;
  }

  std::vector<std::pair<void (*)(void*), void*>> tls_dtors;  // C++ thread_local destructors
  struct Carrier* carrier = nullptr;                         // the pooled OS thread running it
};

// The controlled thread running on this OS thread (nullptr: not under weft).
extern constinit thread_local ThreadState* t_self __attribute__((tls_model("initial-exec")));

// The calling thread when an interposed call must be modelled; nullptr to pass through.
inline ThreadState* controlled_thread() {
  ThreadState* s = t_self;
  return (s != nullptr && s->runtime_depth == 0) ? s : nullptr;
}

// Marks the calling thread as inside weft for its lifetime, so that libc calls weft makes
// (memcpy, ...) are not scheduled as the program's own.
class RuntimeScope {
 public:
  explicit RuntimeScope(ThreadState* s) : s_(s) { ++s_->runtime_depth; }
  ~RuntimeScope() { --s_->runtime_depth; }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;

 private:
  ThreadState* s_;
};

}  // namespace weft::rt
