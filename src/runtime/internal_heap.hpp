#pragma once
// weft's own heap, apart from the program's. The fork server keeps its search (the
// execution tree, the state cache, strings) in the program's process; were those blocks
// taken from glibc's heap, each execution's child would inherit a heap shaped by how far
// the search had got, and the program's objects would sit at different addresses in two
// executions of the same schedule. The state cache and DPOR's sleep sets compare objects
// by address across executions, so the search would then depend on the server's history
// and on address-space randomisation (two runs with one seed finding a bug at different
// executions). So every allocation weft makes for itself comes from here, and glibc's heap
// holds the program's blocks only: it is the same in every child.
//
// One reserved range (never grown, so that the child's mappings do not move either), size
// classes with free lists, a header before each block. Blocks are told apart by address,
// so a block is freed correctly whoever frees it.
//
// A second range, the kept arena, holds what a KeepScope allocates: the search strategy's
// memory. An execution that runs in a process restored between executions (a runner,
// sys/process_snapshot.hpp) leaves that range out of the restore, so the strategy's copy
// there goes on from one execution to the next while everything else is put back; the
// arena's own free lists are at the start of its range, left out with it.
#include <cstddef>
#include <cstdint>

namespace weft::rt {

class InternalHeap {
 public:
  // Whether the calling thread is weft's own (the fork server until its child returns into
  // the program; the in-process explorer's driver): all its allocations are weft's. A
  // program's thread allocates for weft only inside a RuntimeScope.
  static void set_weft_thread(bool on) { weft_thread_ = on; }
  static bool weft_thread() { return weft_thread_; }

  static bool owns(const void* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a - begin_ < size_ || a - kept_begin_ < kept_size_;  // wraps below begin_
  }
  static bool kept(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) - kept_begin_ < kept_size_;
  }
  // Allocations in a KeepScope come from the kept arena (nested scopes count; `on` false:
  // no effect), and are weft's own whichever thread makes them.
  class KeepScope {
   public:
    explicit KeepScope(bool on = true) : on_(on) { keep_depth_ += on_ ? 1 : 0; }
    ~KeepScope() { keep_depth_ -= on_ ? 1 : 0; }
    KeepScope(const KeepScope&) = delete;
    KeepScope& operator=(const KeepScope&) = delete;

   private:
    bool on_;
  };
  static bool keeping() { return keep_depth_ > 0; }
  // The kept arena's range (empty until first used).
  static std::uintptr_t kept_begin() { return kept_begin_; }
  static std::uintptr_t kept_size() { return kept_size_; }
  // The main arena's range that no block has used yet: a snapshot need not copy it.
  static void unused(std::uintptr_t* begin, std::uintptr_t* end);
  // From now on, the process is restored between executions: blocks never used before may
  // hold old contents (a block asked for zeroed is zeroed whatever it is), and a kept block
  // freed outside a KeepScope is left allocated.
  static void set_reused() { reused_ = true; }
  // nullptr when the reserved range is used up (or could not be reserved).
  static void* allocate(std::size_t n, std::size_t alignment = 16, bool zero = false);
  static void free(void* p);
  static void* reallocate(void* p, std::size_t n);
  static std::size_t usable_size(const void* p);

 private:
  static void* allocate_in(void* arena, std::size_t n, std::size_t alignment, bool zero);

  static inline thread_local bool weft_thread_ __attribute__((tls_model("initial-exec"))) = false;
  static inline thread_local int keep_depth_ __attribute__((tls_model("initial-exec"))) = 0;
  static inline std::uintptr_t begin_ = 0;
  static inline std::uintptr_t size_ = 0;
  static inline std::uintptr_t kept_begin_ = 0;
  static inline std::uintptr_t kept_size_ = 0;
  static inline bool reused_ = false;
};

}  // namespace weft::rt
