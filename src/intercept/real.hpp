#pragma once
// The real libc/pthread functions behind weft's interposed symbols, resolved lazily with
// dlsym(RTLD_NEXT): weft's symbols come first in the lookup order (link order or
// LD_PRELOAD), so calls from libstdc++.so reach weft too; -Wl,--wrap would miss those.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/controller.hpp"
#include "runtime/instrumented_code.hpp"
#include "runtime/thread_state.hpp"

// Kept as a void*: std::atomic of the function's own pointer type would drop its
// attributes (nonnull, noexcept's), which GCC warns of.
#define WEFT_DEFINE_REAL(name)                                                \
  inline decltype(&::name) real_##name() {                                    \
    static std::atomic<void*> fn{nullptr};                                    \
    void* f = fn.load(std::memory_order_relaxed);                             \
    if (f == nullptr) {                                                       \
      f = dlsym(RTLD_NEXT, #name);                                            \
      fn.store(f, std::memory_order_relaxed);                                 \
    }                                                                         \
    return reinterpret_cast<decltype(&::name)>(f);                            \
  }                                                                           \
  /* Resolved at load time, before the fork server forks: a dlsym in every */ \
  /* execution's child costs more than the execution (make bench). */         \
  __attribute__((constructor(101))) static void resolve_real_##name() { real_##name(); }

// The return address of the interposed call: where the program called it.
#define WEFT_RAW_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
// The same, attributed to the program's instrumented code when the call came from inside
// a library (for synchronisation calls; memory hooks are always called from the program).
#define WEFT_PC ::weft::rt::program_pc(WEFT_RAW_PC)

namespace weft::intercept {

using rt::Controller;
using rt::RuntimeScope;
using rt::ThreadState;

inline std::uintptr_t addr(const volatile void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// A cancellation point: a thread pthread_cancel asked to end (deferred cancellation) exits
// here with PTHREAD_CANCELED, its cleanup handlers run. Outside any RuntimeScope: the
// handlers are the program's code.
inline void cancellation_point(ThreadState* self) {
  if (!self->cancelling()) return;
  self->cancel_pending = false;
  pthread_exit(PTHREAD_CANCELED);
}
inline Controller& ctl() { return *Controller::active(); }

// Around weft's reads of the program's synchronisation object (ThreadState::reading_for).
// The signal fences keep the reads between the two stores, where the crash handler looks.
class ReadingFor {
 public:
  ReadingFor(ThreadState* self, std::uintptr_t pc) : self_(self) {
    self_->reading_for = pc;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~ReadingFor() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    self_->reading_for = 0;
  }
  ReadingFor(const ReadingFor&) = delete;
  ReadingFor& operator=(const ReadingFor&) = delete;

 private:
  ThreadState* self_;
};

// pthread_cond_wait's mutex `m`, which the caller does not hold in the model: for a plain
// mutex, undefined (glibc unlocks it anyway), an api-misuse; errorcheck, recursive and
// robust mutexes define it (EPERM). Returns only when it is defined.
void check_cond_wait_mutex(ThreadState* self, const pthread_mutex_t* m, std::uintptr_t pc);

// A call weft cannot control (a child process, a raw clone, an unmodelled futex
// operation): the run stops with a tool error naming the call, the thread and `why`.
[[noreturn]] inline void outside_control(ThreadState* self, std::uintptr_t pc,
                                         const std::string& what, const std::string& why) {
  RuntimeScope scope(self);
  ctl().tool_error(
      "the program calls " + what + " in thread " + std::to_string(self->id) + ": " + why, pc);
}

// "T1", "T1 and T2", "T1, T2 and T3": the threads an api-misuse message names.
inline std::string thread_list(const std::vector<BlockedThread>& threads) {
  std::string out;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (i > 0) out += i + 1 == threads.size() ? " and " : ", ";
    out += "T" + std::to_string(threads[i].thread);
  }
  return out;
}

// A destroy of `object` while `waiting` wait on it (or are inside a wait on it): an
// api-misuse, with them as the blocked threads. Nothing when none waits.
inline void check_no_waiters(ThreadState* self, std::vector<BlockedThread> waiting,
                             std::uintptr_t object, Misuse::Object kind, const char* what,
                             std::uintptr_t pc) {
  if (waiting.empty()) return;
  const std::string message = std::string(what) + " that " + thread_list(waiting) +
                              (waiting.size() == 1 ? " waits on" : " wait on");
  Misuse misuse;
  misuse.object = object;
  misuse.kind = kind;
  ctl().misuse(self, message, misuse, pc, std::move(waiting));
}

}  // namespace weft::intercept
