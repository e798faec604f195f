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
  // A compare-exchange that left memory as it was failed (one that succeeds writes).
  if (event.op.kind == OpKind::AtomicCas && (event.flags & kUnchanged)) text += " (failed)";
  if (event.flags & kTimedOut) text += " (timed out)";
  if (event.flags & kSpurious) text += " (spurious wakeup)";
  if ((event.flags & kYielded) && event.op.kind != OpKind::Yield && event.op.kind != OpKind::Sleep)
    text += " (spinning)";
  return text;
}

std::string scalar_text(std::uint64_t value, std::size_t size) {
  const unsigned unused = size >= 8 ? 0 : 64 - 8 * static_cast<unsigned>(size);
  const std::uint64_t bits = unused == 0 ? value : value & (~std::uint64_t{0} >> unused);
  const std::int64_t signed_value = static_cast<std::int64_t>(bits << unused) >> unused;
  if (signed_value > -100000 && signed_value < 100000) return std::to_string(signed_value);
  return hex_address(bits);
}

std::string value_text(const Event& event) {
  const std::size_t size = event.op.size;
  const bool before = (event.values & kValueBefore) != 0, after = (event.values & kValueAfter) != 0;
  switch (event.op.kind) {
    case OpKind::Read:
    case OpKind::AtomicLoad: return before ? " -> " + scalar_text(event.before, size) : "";
    case OpKind::Write:
    case OpKind::AtomicStore: return after ? " = " + scalar_text(event.after, size) : "";
    case OpKind::AtomicRmw:
    case OpKind::AtomicCas:
      if (before && (event.flags & kUnchanged)) return " -> " + scalar_text(event.before, size);
      if (before && after)
        return " " + scalar_text(event.before, size) + " -> " + scalar_text(event.after, size);
      return before ? " -> " + scalar_text(event.before, size) : "";
    default: return "";
  }
}

}  // namespace weft
