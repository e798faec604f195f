// The compiler's ThreadSanitizer instrumentation ABI for plain accesses and calls
// (-fsanitize=thread with g++ or clang++); weft's runtime replaces libtsan.
#include <cstddef>
#include <cstdint>

#include "intercept/real.hpp"
#include "runtime/access_policy.hpp"

using namespace weft;
using namespace weft::intercept;

namespace weft::rt {
bool g_instrumented = false;
bool* g_instrumented_out = nullptr;
}  // namespace weft::rt

namespace {

__attribute__((noinline)) void access_slow(ThreadState* self, OpKind kind, const volatile void* a,
                                           std::size_t size, std::uintptr_t pc,
                                           bool check_race = true) {
  rt::note_instrumented_module(pc);
  RuntimeScope scope(self);
  Op op = make_op(kind, addr(const_cast<const void*>(a)), pc,
                  static_cast<std::uint16_t>(size > 0xffff ? 0xffff : size));
  ctl().memory_access(self, op, size, check_race);
}

// The hot path: one thread-local load and a branch when the thread is not under test.
inline __attribute__((always_inline)) void access(OpKind kind, const volatile void* a,
                                                  std::size_t size, std::uintptr_t pc) {
  if (ThreadState* self = rt::controlled_thread()) access_slow(self, kind, a, size, pc);
}

}  // namespace

#define WEFT_TSAN_ACCESS(n)                                                                      \
  void __tsan_read##n(void* a) { access(OpKind::Read, a, n, WEFT_RAW_PC); }                      \
  void __tsan_write##n(void* a) { access(OpKind::Write, a, n, WEFT_RAW_PC); }                    \
  void __tsan_unaligned_read##n(void* a) { access(OpKind::Read, a, n, WEFT_RAW_PC); }            \
  void __tsan_unaligned_write##n(void* a) { access(OpKind::Write, a, n, WEFT_RAW_PC); }          \
  void __tsan_volatile_read##n(void* a) { access(OpKind::Read, a, n, WEFT_RAW_PC); }             \
  void __tsan_volatile_write##n(void* a) { access(OpKind::Write, a, n, WEFT_RAW_PC); }           \
  void __tsan_unaligned_volatile_read##n(void* a) { access(OpKind::Read, a, n, WEFT_RAW_PC); }   \
  void __tsan_unaligned_volatile_write##n(void* a) { access(OpKind::Write, a, n, WEFT_RAW_PC); } \
  void __tsan_read##n##_pc(void* a, void* pc) {                                                  \
    access(OpKind::Read, a, n, reinterpret_cast<std::uintptr_t>(pc));                            \
  }                                                                                              \
  void __tsan_write##n##_pc(void* a, void* pc) {                                                 \
    access(OpKind::Write, a, n, reinterpret_cast<std::uintptr_t>(pc));                           \
  }

extern "C" {

WEFT_TSAN_ACCESS(1)
WEFT_TSAN_ACCESS(2)
WEFT_TSAN_ACCESS(4)
WEFT_TSAN_ACCESS(8)
WEFT_TSAN_ACCESS(16)

void __tsan_read_range(void* a, unsigned long size) { access(OpKind::Read, a, size, WEFT_RAW_PC); }
void __tsan_write_range(void* a, unsigned long size) {
  access(OpKind::Write, a, size, WEFT_RAW_PC);
}
void __tsan_read_range_pc(void* a, unsigned long size, void* pc) {
  access(OpKind::Read, a, size, reinterpret_cast<std::uintptr_t>(pc));
}
void __tsan_write_range_pc(void* a, unsigned long size, void* pc) {
  access(OpKind::Write, a, size, reinterpret_cast<std::uintptr_t>(pc));
}

// The vtable pointer is read at a virtual call and written by constructors/destructors.
void __tsan_vptr_read(void** vptr_p) { access(OpKind::Read, vptr_p, sizeof(void*), WEFT_RAW_PC); }
// An update is always a step: whether it changes the pointer depends on what the memory
// held before, in-process possibly an object of an earlier execution, and the schedule
// must not. As in TSan, only an update that changes it is checked for races (a destructor
// storing its own class's vtable again, while a thread it then joins still makes virtual
// calls, races with nothing).
void __tsan_vptr_update(void** vptr_p, void* new_val) {
  if (ThreadState* self = rt::controlled_thread())
    access_slow(self, OpKind::Write, vptr_p, sizeof(void*), WEFT_RAW_PC, *vptr_p != new_val);
}

// A shadow call stack, so that a report can name the user's line behind a header's.
// Each frame's stack pointer too, so that a report can name the locals it holds.
void __tsan_func_entry(void* caller_pc) {
  if (ThreadState* s = rt::t_self) {
    if (s->shadow_depth < rt::kShadowDepth) {
      s->shadow[s->shadow_depth] = reinterpret_cast<std::uintptr_t>(caller_pc);
#if defined(__x86_64__)
      // Above this function's saved frame pointer and return address: the caller's stack
      // pointer at the call (__builtin_frame_address gives this function a frame pointer).
      s->shadow_sp[s->shadow_depth] =
          reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) + 16;
#endif
      s->shadow_entry[s->shadow_depth] =
          reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    }
    ++s->shadow_depth;
  }
}
void __tsan_func_exit() {
  if (ThreadState* s = rt::t_self)
    if (s->shadow_depth > 0) --s->shadow_depth;
}

// Called by every instrumented module's constructor; idempotent.
void __tsan_init() {
  rt::g_instrumented = true;
  if (rt::g_instrumented_out != nullptr) *rt::g_instrumented_out = true;
}

}  // extern "C"
