#include "runtime/internal_heap.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <atomic>
#include <bit>
#include <cstring>
#include <new>

#include "sys/os.hpp"

namespace weft::rt {
namespace {

// Before each block: its class and how far its payload is from the block's start (16,
// or more for a block aligned beyond 16 bytes).
struct Header {
  std::uint32_t size_class;
  std::uint32_t offset;
  std::uint64_t unused;
};
static_assert(sizeof(Header) == 16);

// Classes: 16 to 128 bytes in steps of 16, then four per power of two (a block is at most
// a quarter larger than asked for), up to 2^37 bytes.
constexpr std::size_t kSmall = 8, kClasses = kSmall + (37 - 7) * 4;

std::size_t class_of(std::size_t bytes) {
  if (bytes <= 128) return bytes <= 16 ? 0 : (bytes + 15) / 16 - 1;
  const int k = 63 - std::countl_zero(bytes - 1);  // 2^k < bytes <= 2^(k+1)
  const std::size_t step = std::size_t{1} << (k - 2);
  const std::size_t q = (bytes - (std::size_t{1} << k) + step - 1) / step;  // 1..4
  return kSmall + (k - 7) * 4 + (q - 1);
}
std::size_t class_size(std::size_t c) {
  if (c < kSmall) return (c + 1) * 16;
  const std::size_t k = 7 + (c - kSmall) / 4, q = (c - kSmall) % 4 + 1;
  return (std::size_t{1} << k) + q * (std::size_t{1} << (k - 2));
}

// Freed blocks this large give their pages back to the kernel.
constexpr std::size_t kReleaseAbove = 256 << 10;

struct State {
  std::atomic<bool> locked{false};
  bool reserved = false;
  std::uintptr_t next = 0, end = 0;  // the unused rest of the range
  void* free[kClasses] = {};
};
State g;  // the main arena's; the kept arena's is at the start of its own range

class Lock {
 public:
  explicit Lock(State& s) : s_(s) {
    // Held only for a few instructions: weft never switches threads inside the heap.
    while (s_.locked.exchange(true, std::memory_order_acquire))
      while (s_.locked.load(std::memory_order_relaxed)) sched_yield();
  }
  ~Lock() { s_.locked.store(false, std::memory_order_release); }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

 private:
  State& s_;
};

// Address space only (MAP_NORESERVE): pages are used as they are touched. Under an
// address-space limit (ulimit -v), `share` of it at most: the race detector's shadow and
// the trace need theirs.
void* reserve(std::size_t want, std::size_t share, std::size_t* got) {
  constexpr std::size_t kLeast = std::size_t{1} << 26;
  if (const std::size_t limit = os::address_space_limit(); limit != 0)
    while (want > kLeast && want > limit / share) want >>= 1;
  return os::reserve_address_space(want, kLeast, MAP_PRIVATE, got);
}

std::atomic<State*> g_kept{nullptr};
std::atomic<bool> g_kept_reserving{false};
bool g_kept_failed = false;  // the range could not be reserved: not tried again

// The kept arena's state, its range reserved on first use (nullptr when it cannot be).
State* kept_state(std::uintptr_t* begin, std::uintptr_t* size) {
  if (State* k = g_kept.load(std::memory_order_acquire)) return k;
  while (g_kept_reserving.exchange(true, std::memory_order_acquire)) sched_yield();
  State* k = g_kept.load(std::memory_order_relaxed);
  std::size_t got = 0;
  if (k == nullptr && !g_kept_failed) {
    g_kept_failed = true;
    if (void* p = reserve(std::size_t{1} << 34, 8, &got)) {
      k = new (p) State();
      k->reserved = true;
      const auto b = reinterpret_cast<std::uintptr_t>(p);
      k->next = b + ((sizeof(State) + 4095) & ~std::size_t{4095});
      k->end = b + got;
      *begin = b;
      *size = got;
      g_kept_failed = false;
      g_kept.store(k, std::memory_order_release);
    }
  }
  g_kept_reserving.store(false, std::memory_order_release);
  return k;
}

}  // namespace

void* InternalHeap::allocate(std::size_t n, std::size_t alignment, bool zero) {
  if (alignment < 16) alignment = 16;
  if (n > (std::size_t{1} << 36) || alignment > (std::size_t{1} << 30)) return nullptr;
  if (keep_depth_ > 0) {
    State* k = kept_state(&kept_begin_, &kept_size_);
    return k != nullptr ? allocate_in(k, n, alignment, zero) : nullptr;
  }
  {
    Lock lock(g);
    if (!g.reserved) {
      g.reserved = true;
      std::size_t got = 0;
      if (void* p = reserve(std::size_t{1} << 36, 4, &got)) {
        // Huge pages: every fork copies the page tables of the server's memory, which grows
        // with the search (the state cache); in 2 MiB pages that copy stays small. Measured
        // (weft_run_bench's long dfs): executions 10,001-60,000 cost 1.21x the first
        // 10,000 in 4 KiB pages, 1.02x in huge pages.
        madvise(p, got, MADV_HUGEPAGE);
        begin_ = g.next = reinterpret_cast<std::uintptr_t>(p);
        g.end = g.next + got;
        size_ = got;
      }
    }
  }
  return allocate_in(&g, n, alignment, zero);
}

void* InternalHeap::allocate_in(void* arena, std::size_t n, std::size_t alignment, bool zero) {
  State& st = *static_cast<State*>(arena);
  const std::size_t bytes = n + sizeof(Header) + (alignment - 16);
  const std::size_t c = class_of(bytes);
  if (c >= kClasses) return nullptr;
  const std::size_t size = class_size(c);
  std::uintptr_t block = 0;
  bool fresh = false;
  {
    Lock lock(st);
    if (void* f = st.free[c]) {
      st.free[c] = *static_cast<void**>(f);
      block = reinterpret_cast<std::uintptr_t>(f);
    } else if (st.end - st.next >= size) {
      block = st.next;
      st.next += size;
      fresh = true;
    } else {
      return nullptr;
    }
  }
  const std::uintptr_t payload = (block + sizeof(Header) + alignment - 1) & ~(alignment - 1);
  auto* h = reinterpret_cast<Header*>(payload - sizeof(Header));
  h->size_class = static_cast<std::uint32_t>(c);
  h->offset = static_cast<std::uint32_t>(payload - block);
  // Past a restore of the process (sys/process_snapshot.hpp), fresh memory is not zeroes.
  if (zero && (!fresh || reused_)) std::memset(reinterpret_cast<void*>(payload), 0, n);
  return reinterpret_cast<void*>(payload);
}

void InternalHeap::free(void* p) {
  // Past a restore, a kept block freed outside a KeepScope (by an exit's destructors, say)
  // stays allocated: the restored memory that freed it still holds it, and will again.
  if (reused_ && keep_depth_ == 0 && kept(p)) return;
  const auto payload = reinterpret_cast<std::uintptr_t>(p);
  const auto* h = reinterpret_cast<const Header*>(payload - sizeof(Header));
  const std::size_t c = h->size_class;
  const std::uintptr_t block = payload - h->offset;
  if (const std::size_t size = class_size(c); size > kReleaseAbove) {
    // Keep the first page (it holds the free-list link).
    const std::uintptr_t from = (block + 4096) & ~std::uintptr_t{4095};
    const std::uintptr_t to = (block + size) & ~std::uintptr_t{4095};
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  }
  State& st = kept(p) ? *g_kept.load(std::memory_order_acquire) : g;
  Lock lock(st);
  *reinterpret_cast<void**>(block) = st.free[c];
  st.free[c] = reinterpret_cast<void*>(block);
}

void InternalHeap::unused(std::uintptr_t* begin, std::uintptr_t* end) {
  Lock lock(g);
  *begin = g.next;
  *end = g.end;
}

std::size_t InternalHeap::usable_size(const void* p) {
  const auto* h =
      reinterpret_cast<const Header*>(reinterpret_cast<std::uintptr_t>(p) - sizeof(Header));
  return class_size(h->size_class) - h->offset;
}

void* InternalHeap::reallocate(void* p, std::size_t n) {
  const std::size_t have = usable_size(p);
  if (n <= have && n >= have / 2) return p;
  // In the arena of the block: a kept block stays kept, whoever grows it.
  KeepScope keep_if(kept(p));
  void* q = allocate(n);
  if (q == nullptr) return n <= have ? p : nullptr;  // a smaller block can stay where it is
  std::memcpy(q, p, n < have ? n : have);
  free(p);
  return q;
}

}  // namespace weft::rt
