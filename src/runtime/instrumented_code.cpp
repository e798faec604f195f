#include "runtime/instrumented_code.hpp"

#include <execinfo.h>
#include <link.h>

#include <atomic>
#include <string_view>

#include "runtime/thread_state.hpp"

namespace weft::rt {
namespace {

struct Range {
  std::uintptr_t begin, end;
};
constexpr int kMaxRanges = 32;
Range g_ranges[kMaxRanges];
std::atomic<int> g_count{0};

bool in_ranges(std::uintptr_t pc) {
  const int n = g_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (pc >= g_ranges[i].begin && pc < g_ranges[i].end) return true;
  return false;
}

int add_module(struct dl_phdr_info* info, std::size_t, void* data) {
  const auto pc = *static_cast<std::uintptr_t*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr, end = begin + ph.p_memsz;
    if (pc < begin || pc >= end) continue;
    const int n = g_count.load(std::memory_order_relaxed);
    if (n < kMaxRanges) {
      g_ranges[n] = Range{begin, end};
      g_count.store(n + 1, std::memory_order_release);
    }
    return 1;
  }
  return 0;
}

Range g_runtime[kMaxRanges];
int g_runtime_count = 0;  // written once, before any controlled thread exists

int add_runtime_module(struct dl_phdr_info* info, std::size_t, void*) {
  const std::string_view name = info->dlpi_name != nullptr ? info->dlpi_name : "";
  const std::string_view base = name.substr(name.rfind('/') + 1);
  const bool runtime = base.starts_with("libc.so") || base.starts_with("libstdc++.so") ||
                       base.starts_with("libgcc_s.so") || base.starts_with("ld-linux") ||
                       base.starts_with("libm.so");
  if (!runtime) return 0;
  for (int i = 0; i < info->dlpi_phnum && g_runtime_count < kMaxRanges; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    g_runtime[g_runtime_count++] = Range{begin, begin + ph.p_memsz};
  }
  return 0;
}

// The first backtrace() loads libgcc_s: do it at start-up, not in a controlled thread.
// Then every language runtime library is loaded, and their code can be mapped.
__attribute__((constructor(102))) void warm_up_unwinder() {
  void* frame[1];
  backtrace(frame, 1);
  dl_iterate_phdr(&add_runtime_module, nullptr);
}

}  // namespace

bool in_language_runtime(std::uintptr_t pc) {
  for (int i = 0; i < g_runtime_count; ++i)
    if (pc >= g_runtime[i].begin && pc < g_runtime[i].end) return true;
  return false;
}

void note_instrumented_module(std::uintptr_t pc) {
  if (in_ranges(pc)) return;
  dl_iterate_phdr(&add_module, &pc);
}

std::uintptr_t program_pc(std::uintptr_t pc) {
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
