// Allocation functions: each heap block a controlled thread allocates is noted with where
// it was allocated, and each freed one forgotten by the models that remember memory, so that a
// report names a heap object ("heap#2, 48 bytes allocated at queue.cpp:31") instead of an address.
// The blocks themselves come from glibc's allocator
// (__libc_*: no dlsym, which itself allocates), except weft's own, which come from its
// internal heap (runtime/internal_heap.hpp) so that glibc's heap holds only the program's
// blocks and is the same in every execution. operator new is replaced too (a
// replaceable function), so that a C++ allocation is noted where the program called new,
// not inside libstdc++; it allocates through whichever malloc the process uses, so that a
// program with an allocator of its own still frees with the one that allocated.
#include <dlfcn.h>
#include <malloc.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "intercept/real.hpp"
#include "runtime/internal_heap.hpp"

using namespace weft;
using namespace weft::intercept;

extern "C" void* __libc_malloc(std::size_t n);
extern "C" void* __libc_calloc(std::size_t count, std::size_t n);
extern "C" void* __libc_memalign(std::size_t alignment, std::size_t n);
extern "C" void* __libc_realloc(void* p, std::size_t n);
extern "C" void __libc_free(void* p);

using rt::InternalHeap;

WEFT_DEFINE_REAL(malloc_usable_size)

namespace {

// Whether an allocation is weft's own: all of a weft thread's (the fork server's), and a
// program thread's inside weft (a RuntimeScope).
inline bool internal() {
  if (InternalHeap::weft_thread() || InternalHeap::keeping()) return true;
  const ThreadState* s = rt::t_self;
  return s != nullptr && s->runtime_depth != 0;
}

// glibc's block, or weft's when the allocation is weft's own (and its heap has room).
inline void* block(std::size_t n, std::size_t alignment = 0, bool zero = false) {
  if (internal())
    if (void* p = InternalHeap::allocate(n, alignment, zero)) return p;
  return alignment != 0 ? __libc_memalign(alignment, n)
         : zero         ? __libc_calloc(n, 1)
                        : __libc_malloc(n);
}

inline void* noted(void* p, std::size_t n, std::uintptr_t pc) {
  if (p != nullptr)
    if (ThreadState* self = rt::controlled_thread()) ctl().allocated(self, addr(p), n, pc);
  return p;
}

// A controlled thread frees `p`, a block of `size` bytes (Controller::freeing), when that
// is news (only then, and once p is known to be a live block, is its size asked of the
// allocator: size_of). Returns true when the block went to the quarantine instead
// (`may_keep`: a free, which the caller then skips).
template <typename SizeOf>
bool freeing(const void* p, std::uintptr_t pc, SizeOf size_of, bool may_keep) {
  if (p == nullptr) return false;
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && ctl().tracks_frees()) {
    RuntimeScope scope(self);
    ctl().check_free(self, addr(p), pc);
    return ctl().freeing(self, addr(p), size_of(), pc, may_keep);
  }
  return false;
}

extern "C" void* weft_malloc(std::size_t n) noexcept;

// Whether the process's malloc is weft's (glibc's underneath), rather than an allocator
// of the program's own that its free expects every block to come from. Settled at load,
// before any execution.
bool g_malloc_is_weft = true;
__attribute__((constructor(101))) void settle_malloc() {
  g_malloc_is_weft = dlsym(RTLD_DEFAULT, "malloc") == reinterpret_cast<void*>(&weft_malloc);
}

// operator new's contract: retry through the new-handler, else throw.
void* new_block(std::size_t n, std::size_t alignment, std::uintptr_t pc) {
  if (n == 0) n = 1;
  // aligned_alloc wants a multiple of the alignment.
  if (alignment > alignof(std::max_align_t)) n = (n + alignment - 1) / alignment * alignment;
  for (;;) {
    void* p;
    if (g_malloc_is_weft)
      p = noted(block(n, alignment <= alignof(std::max_align_t) ? 0 : alignment), n, pc);
    else
      p = alignment <= alignof(std::max_align_t) ? std::malloc(n)
                                                 : std::aligned_alloc(alignment, n);
    if (p != nullptr) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* new_block_nothrow(std::size_t n, std::size_t alignment, std::uintptr_t pc) noexcept {
  try {
    return new_block(n, alignment, pc);
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

extern "C" {

void* weft_malloc(std::size_t n) noexcept { return noted(block(n), n, WEFT_RAW_PC); }
void* malloc(std::size_t n) noexcept __attribute__((alias("weft_malloc")));

void* calloc(std::size_t count, std::size_t n) noexcept {
  std::size_t bytes;
  if (__builtin_mul_overflow(count, n, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return noted(block(bytes, 0, true), bytes, WEFT_RAW_PC);
}

void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
  return noted(block(n, alignment), n, WEFT_RAW_PC);
}

void* memalign(std::size_t alignment, std::size_t n) noexcept {
  return noted(block(n, alignment), n, WEFT_RAW_PC);
}

// A free writes the whole block (Controller::freeing): a use by another thread that
// nothing orders with it races with it, and partial-order reduction orders the two. With
// race detection on, the block waits in a quarantine so that a use after the free finds
// it freed, not reused.
void free(void* p) noexcept {
  if (InternalHeap::owns(p)) return InternalHeap::free(p);
  if (freeing(
          p, WEFT_PC, [p] { return malloc_usable_size(p); }, true))
    return;
  __libc_free(p);
}

void* realloc(void* p, std::size_t n) noexcept {
  if (InternalHeap::owns(p)) {
    if (n != 0) return InternalHeap::reallocate(p, n);
    InternalHeap::free(p);  // as glibc's realloc(p, 0)
    return nullptr;
  }
  if (p == nullptr) return noted(block(n), n, WEFT_RAW_PC);
  // The block may move: the old one is then freed, which writes all of it. (Whether it
  // moves is the allocator's business: weft counts any realloc as such a write.)
  // (Not quarantined: glibc frees a moved block itself.)
  freeing(
      p, WEFT_PC, [p] { return malloc_usable_size(p); }, false);
  void* q = __libc_realloc(p, n);
  return q != p ? noted(q, n, WEFT_RAW_PC) : q;
}

int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = block(n, alignment);
  if (p == nullptr) return ENOMEM;
  *out = noted(p, n, WEFT_RAW_PC);
  return 0;
}

std::size_t malloc_usable_size(void* p) noexcept {
  if (InternalHeap::owns(p)) return InternalHeap::usable_size(p);
  return real_malloc_usable_size()(p);
}

}  // extern "C"

void* operator new(std::size_t n) { return new_block(n, 0, WEFT_RAW_PC); }
void* operator new[](std::size_t n) { return new_block(n, 0, WEFT_RAW_PC); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return new_block_nothrow(n, 0, WEFT_RAW_PC);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return new_block_nothrow(n, 0, WEFT_RAW_PC);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return new_block(n, static_cast<std::size_t>(a), WEFT_RAW_PC);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return new_block(n, static_cast<std::size_t>(a), WEFT_RAW_PC);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return new_block_nothrow(n, static_cast<std::size_t>(a), WEFT_RAW_PC);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return new_block_nothrow(n, static_cast<std::size_t>(a), WEFT_RAW_PC);
}
