// The ThreadSanitizer ABI for atomics (std::atomic, __atomic/__sync builtins in
// instrumented code). Each operation is one scheduling point, then is performed for real.
// weft explores sequentially consistent interleavings: every operation runs seq_cst.
#include <cstdint>

#include "intercept/real.hpp"
#include "runtime/access_policy.hpp"

// The __tsan_atomic128_* entry points are 16-byte atomics by definition, done by libatomic
// where the processor has no lock-free ones: clang's warning of their cost is not a fault
// of weft's code.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Watomic-alignment"
#endif

using namespace weft;
using namespace weft::intercept;

namespace {

using a8 = char;
using a16 = short;
using a32 = int;
using a64 = long;
using a128 = __int128;

// Acquire/release flags from the memory order (relaxed = 0, consume/acquire = 1/2,
// release = 3, acq_rel/seq_cst = 4/5), kept in Op::aux for happens-before later.
std::uint8_t order_flags(int mo, bool load, bool store) {
  std::uint8_t f = 0;
  if (load && (mo == 1 || mo == 2 || mo >= 4)) f |= kAcquire;
  if (store && mo >= 3) f |= kRelease;
  return f;
}

__attribute__((noinline)) void atomic_point(OpKind kind, const volatile void* a, std::size_t size,
                                            int mo, std::uintptr_t pc) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr) return;
  rt::note_instrumented_module(pc);
  RuntimeScope scope(self);
  Op op = make_op(kind, addr(const_cast<const void*>(a)), pc, static_cast<std::uint16_t>(size),
                  static_cast<std::uint32_t>(mo));
  const bool load = kind != OpKind::AtomicStore;
  const bool store = kind != OpKind::AtomicLoad;
  op.flags |= order_flags(mo, load, store);
  ctl().memory_access(self, op, size);
}

// What the atomic operation at `a` just did, for the step it took: the value it left
// there (Event::after, for the report), and whether it left memory as it was (kUnchanged,
// for the livelock judge: a spin repeats such steps; work changes memory).
template <typename T>
__attribute__((noinline)) void atomic_done(const volatile T* a, T now, bool unchanged) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr || self->mutex_internals != 0) return;
  if constexpr (sizeof(T) <= 8) {
    std::uint64_t v = 0;
    __builtin_memcpy(&v, &now, sizeof(T));
    ctl().atomic_value_after(self, addr(const_cast<const T*>(a)), v);
  }
  if (unchanged) {
    RuntimeScope scope(self);
    ctl().mark_last_event(self, kUnchanged);
  }
}

template <typename T>
T rmw_done(const volatile T* a, T old, T now) {
  atomic_done(a, now, old == now);
  return old;
}

// Every compare-exchange, at the program's `pc` (the caller's return address).
template <typename T>
bool compare_exchange(volatile T* a, T* expected, T v, int mo, std::uintptr_t pc) {
  atomic_point(OpKind::AtomicCas, a, sizeof(T), mo, pc);
  const bool ok =
      __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  atomic_done(a, ok ? v : *expected, !ok);
  return ok;
}

}  // namespace

#define WEFT_TSAN_ATOMIC(n, T)                                                                \
  T __tsan_atomic##n##_load(const volatile T* a, int mo) {                                    \
    atomic_point(OpKind::AtomicLoad, a, sizeof(T), mo, WEFT_RAW_PC);                          \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                              \
  }                                                                                           \
  void __tsan_atomic##n##_store(volatile T* a, T v, int mo) {                                 \
    atomic_point(OpKind::AtomicStore, a, sizeof(T), mo, WEFT_RAW_PC);                         \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                 \
    atomic_done<T>(a, v, false);                                                              \
  }                                                                                           \
  T __tsan_atomic##n##_exchange(volatile T* a, T v, int mo) {                                 \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    return rmw_done<T>(a, __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST), v);                    \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_add(volatile T* a, T v, int mo) {                                \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                 \
    return rmw_done<T>(a, old, static_cast<T>(old + v));                                      \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_sub(volatile T* a, T v, int mo) {                                \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                 \
    return rmw_done<T>(a, old, static_cast<T>(old - v));                                      \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_and(volatile T* a, T v, int mo) {                                \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                 \
    return rmw_done<T>(a, old, static_cast<T>(old & v));                                      \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_or(volatile T* a, T v, int mo) {                                 \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                  \
    return rmw_done<T>(a, old, static_cast<T>(old | v));                                      \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_xor(volatile T* a, T v, int mo) {                                \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                 \
    return rmw_done<T>(a, old, static_cast<T>(old ^ v));                                      \
  }                                                                                           \
  T __tsan_atomic##n##_fetch_nand(volatile T* a, T v, int mo) {                               \
    atomic_point(OpKind::AtomicRmw, a, sizeof(T), mo, WEFT_RAW_PC);                           \
    const T old = __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                \
    return rmw_done<T>(a, old, static_cast<T>(~(old & v)));                                   \
  }                                                                                           \
  int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, int fmo) { \
    return compare_exchange<T>(a, c, v, mo, WEFT_RAW_PC);                                     \
  }                                                                                           \
  /* A weak CAS that fails spuriously is a strong one retried: weft never fails it. */        \
  int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int mo, int fmo) {   \
    return compare_exchange<T>(a, c, v, mo, WEFT_RAW_PC);                                     \
  }                                                                                           \
  T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int mo, int fmo) {       \
    compare_exchange<T>(a, &c, v, mo, WEFT_RAW_PC);                                           \
    return c;                                                                                 \
  }

extern "C" {

WEFT_TSAN_ATOMIC(8, a8)
WEFT_TSAN_ATOMIC(16, a16)
WEFT_TSAN_ATOMIC(32, a32)
WEFT_TSAN_ATOMIC(64, a64)
WEFT_TSAN_ATOMIC(128, a128)

void __tsan_atomic_thread_fence(int mo) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Op op = make_op(OpKind::Fence, 0, WEFT_RAW_PC, 0, static_cast<std::uint32_t>(mo));
    op.flags |= order_flags(mo, true, true);
    ctl().memory_access(self, op, 0);
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int) {}

}  // extern "C"
