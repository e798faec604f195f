#pragma once
// The vocabulary of scheduling: who runs (ThreadId) and what it is about to do (Op).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace weft {

// Threads are numbered in creation order within one execution; the test body is 0.
using ThreadId = std::uint32_t;
inline constexpr ThreadId kNoThread = 0xffffffffu;

enum OpFlag : std::uint8_t {
  kRead = 1u << 0,
  kWrite = 1u << 1,
  kAcquire = 1u << 2,
  kRelease = 1u << 3,
};

enum class OpKind : std::uint8_t {
#define WEFT_OP(name, text, flags) name,
#include "core/op_kinds.def"
#undef WEFT_OP
  Count_
};

inline constexpr std::size_t kOpKindCount = static_cast<std::size_t>(OpKind::Count_);

std::string_view op_name(OpKind kind);
// Loads, stores and read-modify-writes, plain or atomic.
bool is_memory_access(OpKind kind);
// thread-create/join/detach/cancel: `aux` names the thread acted on, not `object`.
bool targets_thread(OpKind kind);
// HbRelease/HbAcquire's aux: the annotated lock's side (AnnotateRWLockAcquired's is_w).
inline constexpr std::uint32_t kAnnotatedWriter = 1, kAnnotatedReader = 2;

// Inline: every instrumented access makes an Op.
inline constexpr std::uint8_t kOpDefaultFlags[kOpKindCount] = {
#define WEFT_OP(name, text, flags) static_cast<std::uint8_t>(flags),
#include "core/op_kinds.def"
#undef WEFT_OP
};
inline std::uint8_t op_default_flags(OpKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kOpKindCount ? kOpDefaultFlags[i] : 0;
}
// Parses a printed name back ("mutex-lock"); false if unknown.
bool op_from_name(std::string_view text, OpKind* out);

// One operation a thread is about to perform. 24 bytes: it is copied on every step.
struct Op {
  OpKind kind = OpKind::Yield;
  std::uint8_t flags = 0;     // OpFlag bits
  std::uint16_t size = 0;     // bytes, for memory accesses
  std::uint32_t aux = 0;      // kind-specific: target thread of create/join, memory order, ...
  std::uintptr_t object = 0;  // address of the object acted on (0: none)
  std::uintptr_t pc = 0;      // return address of the intercepted call

  bool reads() const { return flags & kRead; }
  bool writes() const { return flags & kWrite; }
  bool releases() const { return flags & kRelease; }
  bool acquires() const { return flags & kAcquire; }
};

// Whether `op.object` is an address in memory (not none, a thread, or a descriptor).
bool addresses_memory(const Op& op);

inline Op make_op(OpKind kind, std::uintptr_t object = 0, std::uintptr_t pc = 0,
                  std::uint16_t size = 0, std::uint32_t aux = 0) {
  return Op{kind, op_default_flags(kind), size, aux, object, pc};
}

// A condition variable's wait (cond-wait releases its mutex, cond-wake reacquires it)
// touches the mutex too: its address rides in the fields a wait does not use (aux, the
// low 32 bits; size, the next 16: user-space addresses have 47), so that a trace alone
// shows every object an operation touches.
inline void set_cond_mutex(Op& op, std::uintptr_t mutex) {
  op.aux = static_cast<std::uint32_t>(mutex);
  op.size = static_cast<std::uint16_t>(mutex >> 32);
}
inline std::uintptr_t cond_mutex(const Op& op) {
  if (op.kind != OpKind::CondWait && op.kind != OpKind::CondWake) return 0;
  return static_cast<std::uintptr_t>(op.aux) | static_cast<std::uintptr_t>(op.size) << 32;
}

// Two operations of different threads are dependent (do not commute) when they touch
// the same object and at least one of them writes or releases (CHESS's isWrite/isRelease,
// the POS paper's race relation). Ops of the same thread are always ordered.
bool conflicting(const Op& a, const Op& b);

}  // namespace weft
