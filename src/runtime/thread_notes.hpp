#pragma once
// What reports say about the current execution's threads: the names the program gave them
// (pthread_setname_np) and where their stacks are (an object on one is that thread's
// local). In memory shared with the supervising process, fixed size, so that the notes
// survive the execution's process.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/run_record.hpp"

namespace weft::rt {

struct ThreadNotes {
  static constexpr std::uint32_t kMaxThreads = 256;  // later threads go unnoted
  static constexpr std::size_t kMaxName = 16;        // Linux's limit, with the NUL

  static constexpr std::uint32_t kMaxFrames = 16;            // innermost frames noted per thread
  static constexpr std::uint32_t kFrameBytes = 2048;         // of each frame's memory, at most
  static constexpr std::uint32_t kMemoryBytes = 128 * 1024;  // of all frames' memory

  std::uint32_t used = 0;  // threads [0, used) may have notes
  char name[kMaxThreads][kMaxName] = {};
  ThreadStack stack[kMaxThreads] = {};
  // Each thread's innermost frames when the execution ended (noted only then).
  std::uint32_t nframes[kMaxThreads] = {};
  FrameNote frames[kMaxThreads][kMaxFrames] = {};
  std::uint32_t memory_used = 0;
  alignas(8) std::uint8_t memory[kMemoryBytes] = {};

  // Keeps the top `size` bytes of frame `f`'s memory (below its CFA), as room allows.
  void keep_memory(FrameNote& f, std::uintptr_t lowest) {
    std::uintptr_t size = f.cfa - lowest;
    if (size > kFrameBytes) size = kFrameBytes;
    if (size > kMemoryBytes - memory_used) size = kMemoryBytes - memory_used;
    size &= ~std::uintptr_t{7};
    // Word by word, not memcpy: the program's memcpy is interposed, and this may run in a
    // crash's signal handler.
    const auto* from = reinterpret_cast<const volatile std::uint64_t*>(f.cfa - size);
    std::uint64_t* to = reinterpret_cast<std::uint64_t*>(memory + memory_used);
    for (std::uintptr_t w = 0; w < size / 8; ++w) to[w] = from[w];
    f.memory_at = memory_used;
    f.memory_size = static_cast<std::uint32_t>(size);
    memory_used += static_cast<std::uint32_t>(size);
  }

  void clear() {
    for (std::uint32_t i = 0; i < used; ++i) {
      name[i][0] = '\0';
      stack[i] = ThreadStack{};
      nframes[i] = 0;
    }
    used = 0;
    memory_used = 0;
  }
  void set_name(ThreadId thread, const char* text) {
    if (thread >= kMaxThreads || text == nullptr) return;
    std::strncpy(name[thread], text, kMaxName - 1);
    name[thread][kMaxName - 1] = '\0';
    if (thread >= used) used = thread + 1;
  }
  void set_stack(ThreadId thread, ThreadStack s) {
    if (thread >= kMaxThreads) return;
    stack[thread] = s;
    if (thread >= used) used = thread + 1;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (std::uint32_t i = 0; i < used && i < kMaxThreads; ++i)
      out.emplace_back(name[i], strnlen(name[i], kMaxName));
    return out;
  }
  std::vector<std::vector<FrameNote>> all_frames() const {
    std::vector<std::vector<FrameNote>> out;
    for (std::uint32_t i = 0; i < used && i < kMaxThreads; ++i)
      out.emplace_back(frames[i], frames[i] + (nframes[i] < kMaxFrames ? nframes[i] : kMaxFrames));
    return out;
  }
  std::vector<ThreadStack> stacks() const {
    return {stack, stack + (used < kMaxThreads ? used : kMaxThreads)};
  }
};

}  // namespace weft::rt
