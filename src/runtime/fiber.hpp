#pragma once
// User-level switching between controlled threads.
//
// A scheduling step that moves the baton from one OS thread to another costs a kernel
// context switch: about 2 us here, three quarters of dpor's time on a lock-heavy program
// (`make bench`). Yet only one controlled thread runs at a time, so one kernel thread can
// run them all in turn: at a scheduling point the kernel thread running `self` saves
// self's registers and resumes `next`'s, switching the fs base too, so that next's TLS,
// errno and pthread_self are its own. Every controlled thread keeps its OS thread (its
// carrier: stack, TCB, kernel thread id for signals); only which kernel thread runs it
// changes.
//
// So kernel threads become processors. The one running a fiber is active; the others
// park on a small stack of their own, waiting to be told which fiber to resume. A fiber
// is pinned to its own kernel thread (its home) when something there is the kernel
// thread's rather than the fiber's: a custom-stack carrier or pthread_exit (the kernel
// thread ends), a signal mask or name the program set, asynchronous signal handlers
// (signals.hpp). A pinned fiber waits in the kernel, at home, as every thread did before.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace weft::rt {

struct Processor;

// A controlled thread's stack and TCB, as a context any processor can resume.
struct Fiber {
  enum class State : std::uint8_t {
    kRunning,  // on processor `on`
    kSaved,    // its registers are at `sp`: any processor may resume it
    kBlocked,  // waiting in the kernel, on its home (pinned, or a carrier never run yet)
  };
  void* sp = nullptr;
  std::uintptr_t tcb = 0;  // its fs base: its pthread_t
  Processor* home = nullptr;
  Processor* on = nullptr;
  State state = State::kBlocked;
  bool pinned = false;
};

// A kernel thread that runs fibers. Parked, it waits on `wake` to resume `resume`.
struct Processor {
  static constexpr std::size_t kParkStackSize = 64 * 1024;
  pid_t tid = 0;
  std::uintptr_t tcb = 0;  // its own TCB, the fs base while parked
  void* park_sp = nullptr;
  std::atomic<std::uint32_t> wake{0};
  Fiber* resume = nullptr;
  // Set by the fiber that parks this processor, done once it is saved: the word that
  // wakes whoever runs next (a kernel-waiting thread's baton, another processor's wake).
  std::atomic<std::uint32_t>* after_park = nullptr;
  // From weft's own heap: init() runs on a new kernel thread, concurrently with the
  // program's, which a 64 KiB block taken from the program's heap there would shift by
  // timing (the same schedule then put the program's objects elsewhere, and state
  // caching, which names objects by address, pruned differently from run to run).
  char* park_stack = nullptr;
  bool park_stack_internal = false;
  Processor() = default;
  Processor(const Processor&) = delete;
  Processor& operator=(const Processor&) = delete;
  ~Processor();

  // Makes the park context: the processor runs on `tid`'s kernel thread, with fs `tcb`.
  void init(pid_t tid, std::uintptr_t tcb);
};

namespace fiber {

// Whether fibers switch in user space here (x86-64, and WEFT_FIBERS is not 0). When not,
// every fiber is pinned: every switch goes through the kernel.
bool enabled();
// Turns user-level switching off from now on (before any controlled thread exists): a
// replay, made for a debugger, keeps every thread on its own kernel thread, where gdb
// looks for it.
void disable();
// Saves the calling context (callee-saved registers, MXCSR, x87 control word) at *save,
// sets the fs base to `tcb`, and resumes the context saved at `to`.
void switch_to(void** save, void* to, std::uintptr_t tcb);
// Stores 1 into `word` and wakes a kernel thread waiting on it.
void set_and_wake(std::atomic<std::uint32_t>* word);

}  // namespace fiber
}  // namespace weft::rt
