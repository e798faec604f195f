#include "runtime/instrumented_code.hpp"

#include <execinfo.h>
#include <link.h>

#include <atomic>
#include <charconv>
#include <string_view>

#include "core/runtime_libraries.hpp"
#include "runtime/thread_state.hpp"

namespace weft::rt {
namespace {

struct Range {
  std::uintptr_t begin, end;
};
constexpr int kMaxRanges = 32;
Range g_ranges[kMaxRanges];
std::atomic<int> g_count{0};

bool contains(const Range* ranges, int n, std::uintptr_t pc) {
  for (int i = 0; i < n; ++i)
    if (pc >= ranges[i].begin && pc < ranges[i].end) return true;
  return false;
}

bool in_ranges(std::uintptr_t pc) {
  return contains(g_ranges, g_count.load(std::memory_order_acquire), pc);
}

// Calls f(Range) for each loaded executable segment of a module; stops when f says true.
template <typename F>
bool for_each_code_segment(const struct dl_phdr_info* info, F f) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (f(Range{begin, begin + ph.p_memsz})) return true;
  }
  return false;
}

int add_module(struct dl_phdr_info* info, std::size_t, void* data) {
  const auto pc = *static_cast<std::uintptr_t*>(data);
  return for_each_code_segment(info, [pc](Range r) {
    if (pc < r.begin || pc >= r.end) return false;
    const int n = g_count.load(std::memory_order_relaxed);
    if (n < kMaxRanges) {
      g_ranges[n] = r;
      g_count.store(n + 1, std::memory_order_release);
    }
    return true;
  });
}

Range g_runtime[kMaxRanges];
int g_runtime_count = 0;  // written once, before any controlled thread exists

int add_runtime_module(struct dl_phdr_info* info, std::size_t, void*) {
  const std::string_view name = info->dlpi_name != nullptr ? info->dlpi_name : "";
  if (!is_language_runtime_library(name.substr(name.rfind('/') + 1))) return 0;
  for_each_code_segment(info, [](Range r) {
    if (g_runtime_count == kMaxRanges) return true;
    g_runtime[g_runtime_count++] = r;
    return false;
  });
  return 0;
}

// The first backtrace() loads libgcc_s: do it at start-up, not in a controlled thread.
// Then every language runtime library is loaded, and their code can be mapped.
__attribute__((constructor(102))) void warm_up_unwinder() {
  void* frame[1];
  backtrace(frame, 1);
  dl_iterate_phdr(&add_runtime_module, nullptr);
}

struct ModuleQuery {
  std::uintptr_t pc = 0;  // code_location: find the module holding it
  std::string_view name;  // resolve: find the module of this name
  bool first = true;      // the first module listed is the main program
  std::string found_name;
  std::uintptr_t base = 0;
  bool found = false;
};

std::string_view module_name(const struct dl_phdr_info* info, bool main_program) {
  if (main_program) return "";
  const std::string_view path = info->dlpi_name != nullptr ? info->dlpi_name : "";
  return path.substr(path.rfind('/') + 1);
}

int find_module_of_pc(struct dl_phdr_info* info, std::size_t, void* data) {
  auto* q = static_cast<ModuleQuery*>(data);
  const bool main_program = q->first;
  q->first = false;
  if (!for_each_code_segment(info, [q](Range r) { return q->pc >= r.begin && q->pc < r.end; }))
    return 0;
  q->found_name = module_name(info, main_program);
  q->base = info->dlpi_addr;
  q->found = true;
  return 1;
}

int find_module_named(struct dl_phdr_info* info, std::size_t, void* data) {
  auto* q = static_cast<ModuleQuery*>(data);
  const bool main_program = q->first;
  q->first = false;
  if (module_name(info, main_program) != q->name) return 0;
  if (!main_program && q->name.empty()) return 0;  // the vdso and such have no name
  q->base = info->dlpi_addr;
  q->found = true;
  return 1;
}

}  // namespace

std::string code_location(std::uintptr_t pc) {
  ModuleQuery q;
  q.pc = pc;
  dl_iterate_phdr(&find_module_of_pc, &q);
  if (!q.found) return "";
  char hex[24];
  auto r = std::to_chars(hex, hex + sizeof hex, pc - q.base, 16);
  return q.found_name + "+" + std::string(hex, r.ptr);
}

std::uintptr_t resolve_code_location(std::string_view location) {
  const std::size_t plus = location.rfind('+');
  if (plus == std::string_view::npos) return 0;
  std::uintptr_t offset = 0;
  const std::string_view hex = location.substr(plus + 1);
  auto r = std::from_chars(hex.data(), hex.data() + hex.size(), offset, 16);
  if (hex.empty() || r.ec != std::errc() || r.ptr != hex.data() + hex.size()) return 0;
  ModuleQuery q;
  q.name = location.substr(0, plus);
  dl_iterate_phdr(&find_module_named, &q);
  return q.found ? q.base + offset : 0;
}

bool in_language_runtime(std::uintptr_t pc) { return contains(g_runtime, g_runtime_count, pc); }

void note_instrumented_module(std::uintptr_t pc) {
  if (in_ranges(pc)) return;
  dl_iterate_phdr(&add_module, &pc);
}

std::uintptr_t program_pc(std::uintptr_t pc) {
  // A wrapper of weft's own (C11 threads) said where the program called it.
  if (const ThreadState* self = t_self; self != nullptr && self->call_pc != 0) return self->call_pc;
  if (g_count.load(std::memory_order_acquire) == 0 || in_ranges(pc)) return pc;
  void* frames[24];
  // The unwinder locks mutexes and copies memory: not the program's operations.
  ThreadState* self = t_self;
  if (self != nullptr) ++self->runtime_depth;
  const int n = backtrace(frames, 24);
  if (self != nullptr) --self->runtime_depth;
  for (int i = 1; i < n; ++i) {
    const auto f = reinterpret_cast<std::uintptr_t>(frames[i]);
    if (in_ranges(f)) return f;
  }
  return pc;
}

}  // namespace weft::rt
