#pragma once
// Crashes of the program under test: fatal signals, std::terminate. Each is turned into a
// bug in a BugSlot, then `finish` ends the exploration process.
#include <cstdint>

#include "detect/bug_slot.hpp"

namespace weft::detect {

using FinishFn = void (*)();  // publishes the trace counters and _exits; never returns

// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT and SIGTRAP, and a
// std::terminate handler. `current_thread` names the controlled thread that failed and
// marks it as inside weft (what the handler calls must not be scheduled).
void install_crash_handlers(BugSlot* slot, FinishFn finish, ThreadId (*current_thread)());
// `site` says where a fault is the program's call rather than the faulting code (weft
// reading the program's object for it: ThreadState::reading_for); 0: the faulting pc.
void set_crash_site(std::uintptr_t (*site)());

// Fills `slot` with a description of signal `sig` (async-signal-safe): the faulting
// address the kernel gives, or, when it gives none (`code` SI_KERNEL: a general protection
// fault), the one the faulting instruction of `uctx` (a ucontext_t, may be null) used.
void describe_signal(BugSlot* slot, int sig, int code, const void* fault_addr,
                     const void* uctx = nullptr);

// Where the calling thread last threw (the return address of its __cxa_throw call) and the
// object it threw: an uncaught exception's report names the throw when the exception is
// that object (not one another thread threw and this one rethrew).
void note_throw(std::uintptr_t pc, const void* object);
// The throw site of the exception being handled, 0 when unknown. Inside a handler.
std::uintptr_t current_throw_site();

}  // namespace weft::detect
