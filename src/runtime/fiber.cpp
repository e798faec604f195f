#include "runtime/fiber.hpp"

#include <stdlib.h>
#include <sys/auxv.h>

#include <cstdlib>
#include <cstring>

#include "runtime/internal_heap.hpp"
#include "sys/os.hpp"

#if defined(__x86_64__)
// weft_fiber_switch_{fsgsbase,syscall}(void** save, void* to, uintptr_t tcb): push the
// callee-saved registers and the floating-point control words, store the stack pointer at
// *save, set the fs base (the WRFSBASE instruction where the kernel allows it, else the
// arch_prctl system call), load `to` and pop what it saved. weft_fiber_start begins a new
// context: it calls rbx(r12), both popped from the frame Processor::init lays out.
asm(R"(
  .macro WEFT_SAVE
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  .endm
  .macro WEFT_RESTORE
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .endm

  .text
  .p2align 4
  .globl weft_fiber_switch_fsgsbase
  .hidden weft_fiber_switch_fsgsbase
  .type weft_fiber_switch_fsgsbase, @function
weft_fiber_switch_fsgsbase:
  WEFT_SAVE
  wrfsbase %rdx
  movq %rsi, %rsp
  WEFT_RESTORE
  .size weft_fiber_switch_fsgsbase, .-weft_fiber_switch_fsgsbase

  .p2align 4
  .globl weft_fiber_switch_syscall
  .hidden weft_fiber_switch_syscall
  .type weft_fiber_switch_syscall, @function
weft_fiber_switch_syscall:
  WEFT_SAVE
  movq %rsi, %r12
  movq %rdx, %rsi
  movl $0x1002, %edi
  movl $158, %eax
  syscall
  movq %r12, %rsp
  WEFT_RESTORE
  .size weft_fiber_switch_syscall, .-weft_fiber_switch_syscall

  .p2align 4
  .globl weft_fiber_start
  .hidden weft_fiber_start
  .type weft_fiber_start, @function
weft_fiber_start:
  movq %r12, %rdi
  callq *%rbx
  ud2
  .size weft_fiber_start, .-weft_fiber_start
)");

extern "C" {
void weft_fiber_switch_fsgsbase(void** save, void* to, std::uintptr_t tcb);
void weft_fiber_switch_syscall(void** save, void* to, std::uintptr_t tcb);
void weft_fiber_start();
}
#endif

namespace weft::rt {
namespace {

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

using SwitchFn = void (*)(void**, void*, std::uintptr_t);

struct Support {
  bool enabled = false;
  SwitchFn fn = nullptr;
};

Support& support() {
  static Support s = [] {
    Support r;
#if defined(__x86_64__)
    // WEFT_FIBERS=0: off; =arch_prctl: the system call even where WRFSBASE works (so
    // that the fallback is tested on machines that have it).
    const char* env = getenv("WEFT_FIBERS");
    if (env != nullptr && std::strcmp(env, "0") == 0) return r;
    const bool forced_syscall = env != nullptr && std::strcmp(env, "arch_prctl") == 0;
    r.enabled = true;
    r.fn = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0 && !forced_syscall
               ? &weft_fiber_switch_fsgsbase
               : &weft_fiber_switch_syscall;
#endif
    return r;
  }();
  return s;
}

// A parked processor: it wakes whoever runs next once the fiber that parked it is saved,
// then waits to be told which fiber to resume. Raw system calls only: its fs base is its
// own TCB, whose thread may be running on another processor, so it touches no TLS.
[[noreturn]] void park_main(Processor* p) {
  for (;;) {
    if (std::atomic<std::uint32_t>* w = p->after_park) {
      p->after_park = nullptr;
      fiber::set_and_wake(w);
    }
    while (p->wake.load(std::memory_order_acquire) == 0)
      os::futex_wait(reinterpret_cast<const std::uint32_t*>(&p->wake), 0);
    p->wake.store(0, std::memory_order_relaxed);
    Fiber* f = p->resume;
    f->on = p;
    f->state = Fiber::State::kRunning;
    fiber::switch_to(&p->park_sp, f->sp, f->tcb);
  }
}

}  // namespace

Processor::~Processor() {
  if (park_stack_internal)
    InternalHeap::free(park_stack);
  else
    std::free(park_stack);
}

void Processor::init(pid_t kernel_tid, std::uintptr_t own_tcb) {
  tid = kernel_tid;
  tcb = own_tcb;
  if (!fiber::enabled()) return;
#if defined(__x86_64__)
  if (park_stack == nullptr) {
    park_stack = static_cast<char*>(InternalHeap::allocate(kParkStackSize));
    park_stack_internal = park_stack != nullptr;
    if (park_stack == nullptr) park_stack = static_cast<char*>(std::malloc(kParkStackSize));
  }
  // The frame weft_fiber_switch pops: control words, r15..r12, rbx, rbp, return address.
  auto top = (reinterpret_cast<std::uintptr_t>(park_stack) + kParkStackSize) & ~std::uintptr_t{15};
  auto* frame = reinterpret_cast<std::uint64_t*>(top - 8 * 8);
  const std::uint32_t mxcsr = 0x1f80;
  const std::uint16_t fcw = 0x037f;
  std::memset(frame, 0, 8 * 8);
  std::memcpy(&frame[0], &mxcsr, sizeof mxcsr);
  std::memcpy(reinterpret_cast<char*>(&frame[0]) + 4, &fcw, sizeof fcw);
  frame[4] = reinterpret_cast<std::uint64_t>(this);               // r12: the argument
  frame[5] = reinterpret_cast<std::uint64_t>(&park_main);         // rbx: the function
  frame[7] = reinterpret_cast<std::uint64_t>(&weft_fiber_start);  // the return address
  park_sp = frame;
#endif
}

namespace fiber {

bool enabled() { return support().enabled; }

void disable() { support().enabled = false; }

void switch_to(void** save, void* to, std::uintptr_t tcb) { support().fn(save, to, tcb); }

void set_and_wake(std::atomic<std::uint32_t>* word) {
  word->store(1, std::memory_order_release);
  os::futex_wake(reinterpret_cast<const std::uint32_t*>(word), 1);
}

}  // namespace fiber
}  // namespace weft::rt
