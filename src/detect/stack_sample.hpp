#pragma once
// Where a thread stopped, with its callers: a hang's sample and a crash's stack. A pc alone
// often names libc's read() or weft's own instrumentation; a report names the first of the
// program's own frames among the callers (report/location.cpp).
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft::detect {

struct StackSample {
  static constexpr std::size_t kFrames = 16;

  std::atomic<std::uintptr_t> pc{0};     // stored last: the callers are there when it is set
  std::uintptr_t callers[kFrames] = {};  // return addresses, innermost first (0: none)
};

// Loads the unwinder (glibc's backtrace dlopens libgcc_s on its first call, which a signal
// handler must not do). Call once in a process that forks the ones that sample.
void warm_up_unwinder();

// From a signal handler: the return addresses of the interrupted code's callers (the
// handler's and the signal trampoline's frames skipped), into out[0..n); the rest zeroed.
// `pc` is the interrupted pc (from the ucontext). Async-signal-safe after warm_up_unwinder().
void interrupted_callers(std::uintptr_t pc, std::uintptr_t* out, std::size_t n);

}  // namespace weft::detect
