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
    return a - begin_ < size_;  // wraps for addresses below begin_
  }
  // nullptr when the reserved range is used up (or could not be reserved).
  static void* allocate(std::size_t n, std::size_t alignment = 16, bool zero = false);
  static void free(void* p);
  static void* reallocate(void* p, std::size_t n);
  static std::size_t usable_size(const void* p);

 private:
  static inline thread_local bool weft_thread_ __attribute__((tls_model("initial-exec"))) = false;
  static inline std::uintptr_t begin_ = 0;
  static inline std::uintptr_t size_ = 0;
};

}  // namespace weft::rt
