#pragma once
// A carrier is a pooled OS thread that carries one controlled thread per execution.
// Creating and reaping an OS thread costs tens of microseconds here, a scheduling step
// about one (`make bench`), so carriers are reused across executions; what makes a thread
// new is restored instead: the program's thread_local storage, pthread key values (their
// destructors run under control when the thread finishes), the thread's name, its signal
// mask, errno. pthread_self stays distinct among the threads of one execution: a carrier
// serves one controlled thread per execution.
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/fiber.hpp"

namespace weft::rt {

struct ThreadState;

struct Carrier {
  static constexpr std::size_t kAltStackSize = 64 * 1024;

  pthread_t os{};
  std::atomic<std::uint32_t> go{0};  // 1: `assigned` is ready to run
  ThreadState* assigned = nullptr;
  bool reusable = true;  // false: made with a custom stack; ends with its thread
  bool dead = false;     // its thread called pthread_exit: the OS thread ended
  bool quit = false;     // woken with nothing to run: its OS thread ends (end_carriers)
  pid_t tid = 0;         // its kernel thread id, which every thread it runs has
  sigset_t initial_mask{};
  char initial_name[16] = {};
  // The thread it ran changed its name or its signal mask (the intercepts say so): only
  // then does reset_carrier restore them, a system call each.
  bool renamed = false;
  bool mask_changed = false;
  // An alternate signal stack, so that a stack overflow is reported like any other crash.
  std::unique_ptr<char[]> altstack{new char[kAltStackSize]};
  // Its stack and TCB as a fiber, and its kernel thread as a processor (fiber.hpp).
  Fiber fiber;
  Processor processor;
};

// Restores what a new thread would have: the calling thread's static TLS of the program's
// own modules (not libc's, libstdc++'s or weft's: their state must survive), its name and
// signal mask.
void reset_carrier(Carrier* c);

}  // namespace weft::rt
