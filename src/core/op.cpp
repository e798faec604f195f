#include "core/op.hpp"

#include <array>

namespace weft {
namespace {
constexpr std::array<std::string_view, kOpKindCount> kNames = {{
#define WEFT_OP(name, text, flags) text,
#include "core/op_kinds.def"
#undef WEFT_OP
}};
}  // namespace

bool is_memory_access(OpKind kind) {
  switch (kind) {
    case OpKind::Read:
    case OpKind::Write:
    case OpKind::AtomicLoad:
    case OpKind::AtomicStore:
    case OpKind::AtomicRmw:
    case OpKind::AtomicCas: return true;
    default: return false;
  }
}

bool targets_thread(OpKind kind) {
  return kind == OpKind::ThreadCreate || kind == OpKind::ThreadJoin ||
         kind == OpKind::ThreadTryJoin || kind == OpKind::ThreadDetach ||
         kind == OpKind::ThreadCancel;
}

bool addresses_memory(const Op& op) {
  return op.object != 0 && !targets_thread(op.kind) && op.kind != OpKind::FdWait;
}

std::string_view op_name(OpKind kind) {
  auto i = static_cast<std::size_t>(kind);
  return i < kNames.size() ? kNames[i] : std::string_view("?");
}

bool op_from_name(std::string_view text, OpKind* out) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == text) {
      *out = static_cast<OpKind>(i);
      return true;
    }
  }
  return false;
}

bool conflicting(const Op& a, const Op& b) {
  if (a.object == 0 || a.object != b.object) return false;
  return (a.flags | b.flags) & (kWrite | kRelease);
}

}  // namespace weft
