#include "report/op_text.hpp"

#include <cstdio>

namespace weft {

bool targets_thread(OpKind kind) {
  return kind == OpKind::ThreadCreate || kind == OpKind::ThreadJoin ||
         kind == OpKind::ThreadDetach;
}

std::string hex_address(std::uintptr_t address) {
  char buf[2 + 2 * sizeof(address) + 1];
  std::snprintf(buf, sizeof buf, "0x%jx", static_cast<std::uintmax_t>(address));
  return buf;
}

std::string thread_name(ThreadId thread) {
  return thread == kNoThread ? "-" : "T" + std::to_string(thread);
}

std::string object_text(const Op& op) {
  if (targets_thread(op.kind)) return thread_name(op.aux);
  if (op.object == 0) return {};
  if (op.kind == OpKind::FdWait) return "fd " + std::to_string(op.object - 1);
  std::string text = hex_address(op.object);
  if (is_memory_access(op.kind) && op.size != 0) {
    text += " (" + std::to_string(op.size) + (op.size == 1 ? " byte)" : " bytes)");
  }
  return text;
}

std::string op_text(const Event& event) {
  std::string text(op_name(event.op.kind));
  if (event.flags & kFailed) text += " (failed)";
  if (event.flags & kTimedOut) text += " (timed out)";
  if (event.flags & kSpurious) text += " (spurious wakeup)";
  if ((event.flags & kYielded) && event.op.kind != OpKind::Yield && event.op.kind != OpKind::Sleep)
    text += " (spinning)";
  return text;
}

}  // namespace weft
