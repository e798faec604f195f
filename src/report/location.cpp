#include "report/location.hpp"

#include <array>
#include <string_view>

#include "core/runtime_libraries.hpp"

namespace weft {
namespace {

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes) {
    if (s.starts_with(p)) return true;
  }
  return false;
}

std::string_view basename_view(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool is_user_frame(const Frame& frame) {
  if (frame.file.empty()) return false;
  if (starts_with_any(frame.file, {"/usr/include/", "/usr/lib/", "/usr/lib64/", "/lib/"})) {
    return false;
  }
#ifdef WEFT_SOURCE_DIR
  // weft's own runtime, when it is linked into the program rather than loaded as libweft.
  if (std::string_view(frame.file).starts_with(WEFT_SOURCE_DIR)) return false;
#endif
  return !is_language_runtime_library(frame.module) &&
         !starts_with_any(frame.module, {"libweft", "libtsan.so", "libasan.so", "libubsan.so",
                                         "linux-vdso", "[vdso"});
}

Frame choose_location(std::span<const std::uintptr_t> return_addresses, Symbolizer& symbolizer) {
  const Frame* fallback = nullptr;
  for (std::uintptr_t pc : return_addresses) {
    if (pc == 0) continue;
    for (const Frame& frame : symbolizer.frames(pc)) {
      if (is_user_frame(frame)) return frame;
      if (fallback == nullptr && frame.known()) fallback = &frame;
    }
  }
  return fallback != nullptr ? *fallback : Frame{};
}

namespace {

Frame choose_location(std::uintptr_t pc, const std::uintptr_t (&callers)[kCallerFrames],
                      Symbolizer& symbolizer) {
  std::array<std::uintptr_t, 1 + kCallerFrames> pcs{};
  pcs[0] = pc;
  for (std::size_t i = 0; i < kCallerFrames; ++i) pcs[1 + i] = callers[i];
  return choose_location(pcs, symbolizer);
}

}  // namespace

Frame choose_location(const Event& event, Symbolizer& symbolizer) {
  return choose_location(event.op.pc, event.callers, symbolizer);
}

Frame choose_location(const Allocation& block, Symbolizer& symbolizer) {
  return choose_location(block.pc, block.callers, symbolizer);
}

Frame choose_location(std::uintptr_t return_address, Symbolizer& symbolizer) {
  return choose_location(std::span(&return_address, 1), symbolizer);
}

Frame choose_location(const Op& op, Symbolizer& symbolizer) {
  return choose_location(op.pc, symbolizer);
}

Frame bug_location(const BugRecord& bug, Symbolizer& symbolizer) {
  // Every pc is read as a return address (detect/ records a faulting pc as pc + 1).
  const std::vector<Frame>& chain = symbolizer.frames(bug.pc);
  Frame at_pc;
  for (const Frame& f : chain) {
    if (is_user_frame(f)) {
      at_pc = f;
      break;
    }
    if (!at_pc.known()) at_pc = f;
  }
  if (!bug.source_file.empty()) {
    // __FILE__ may be relative to the build directory; the debug info's path of the same
    // line is absolute, so prefer it when it names the same file and line.
    for (const Frame& f : chain) {
      if (f.line == bug.source_line && basename_view(f.file) == basename_view(bug.source_file)) {
        return f;
      }
    }
    Frame f;
    f.file = bug.source_file;
    f.line = bug.source_line;
    f.function = at_pc.function;
    f.module = at_pc.module;
    return f;
  }
  // In libc (read, memcpy) or in weft: the first of the program's frames that called it.
  if (!is_user_frame(at_pc) && !bug.stack.empty())
    if (Frame caller = choose_location(bug.stack, symbolizer); is_user_frame(caller)) return caller;
  if (at_pc.known()) return at_pc;
  if (bug.kind == BugKind::kDataRace || bug.kind == BugKind::kLivelock) {
    for (auto it = bug.events.rbegin(); it != bug.events.rend(); ++it) {
      if (bug.thread == kNoThread || it->thread == bug.thread) {
        return choose_location(*it, symbolizer);
      }
    }
  }
  return at_pc;
}

std::string where_suffix(std::uintptr_t pc, Symbolizer& symbolizer) {
  if (pc == 0) return "";
  const Frame f = choose_location(pc, symbolizer);
  if (f.file.empty()) return "";
  std::string text = " (at " + f.file + ":" + std::to_string(f.line);
  if (!f.function.empty()) text += " in " + f.function;
  return text + ")";
}

}  // namespace weft
