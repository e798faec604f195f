#include "report/op_text.hpp"

#include <cstdio>

namespace weft {

std::string hex_address(std::uintptr_t address) {
  char buf[2 + 2 * sizeof(address) + 1];
  std::snprintf(buf, sizeof buf, "0x%jx", static_cast<std::uintmax_t>(address));
  return buf;
}

std::string thread_name(ThreadId thread) {
  return thread == kNoThread ? "-" : "T" + std::to_string(thread);
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
