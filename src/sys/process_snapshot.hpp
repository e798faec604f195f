#pragma once
// A process put back as it was, without a fork (#30): what an execution of a whole program
// changes, saved once and restored after each execution, so that the next one starts where
// the first did.
//
// Saved: the contents of every private writable mapping (all but the ranges excluded:
// weft's own memory that outlives executions), the program break, which mappings exist and
// their protections, the open descriptors (each kept as a duplicate above the program's),
// the signal dispositions, the working directory and the umask. The calling thread's
// registers and signal mask are its context (getcontext): restore() puts the memory back
// from a stack of its own and resumes that context, so take() returns a second time.
//
// Memory is copied whole, not tracked: on the virtual machines this project runs on a page
// fault costs 11-15 us, so a copy of a few hundred KiB beats any scheme that write-protects
// pages (soft-dirty, userfaultfd), and costs a tenth of a fork. It is meant for programs
// whose writable memory at the start is small (kMaxSavedBytes).
//
// What cannot be put back is detected, before anything is changed: another thread alive, a
// mapping of the start unmapped or its protection changed, a descriptor weft keeps closed.
// restore() then returns why, and the caller ends the process instead (its fork server runs
// the next execution in a fresh child).
//
// Nothing here allocates from a heap (the heaps are what is restored): the bookkeeping
// lives in mappings of its own, which are excluded.
#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace weft::os {

class ProcessSnapshot {
 public:
  static constexpr std::size_t kMaxSavedBytes = std::size_t{256} << 20;
  static constexpr std::size_t kMaxExcluded = 64;

  ProcessSnapshot() = default;
  ProcessSnapshot(const ProcessSnapshot&) = delete;
  ProcessSnapshot& operator=(const ProcessSnapshot&) = delete;
  ~ProcessSnapshot();

  // A range of memory neither saved nor restored (before take()): its writes outlive a
  // restore.
  bool exclude(const void* begin, std::size_t bytes);

  // Usage: the snapshot's context is taken in the caller's frame, which must stay live:
  //   if (getcontext(snap.context()) != 0) ...;
  //   if (snap.resumed()) { /* restored: here again */ } else { error = snap.take(); }
  ucontext_t* context();
  // True once after each restore (consumed): the context was resumed by restore().
  bool resumed();
  // Saves the process; "" or why it cannot be (nothing is kept then).
  std::string take();
  bool taken() const;

  // Puts the process back as take() saw it and resumes the context (does not return), or
  // returns why it cannot, having changed nothing. Called on the thread that took it.
  // `committed(arg)`, when given, runs once the checks have passed, before any change.
  std::string restore(void (*committed)(void*) = nullptr, void* arg = nullptr);

  // Bytes of memory copied by each restore.
  std::size_t saved_bytes() const;

  struct Control;  // the bookkeeping, in a mapping of its own

 private:
  Control* control_ = nullptr;
};

}  // namespace weft::os
