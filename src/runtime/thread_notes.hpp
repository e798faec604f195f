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

  static constexpr std::uint32_t kMaxFrames = 16;     // innermost frames noted per thread

  std::uint32_t used = 0;  // threads [0, used) may have notes
  char name[kMaxThreads][kMaxName] = {};
  ThreadStack stack[kMaxThreads] = {};
  // Each thread's innermost frames when the execution ended (noted only then).
  std::uint32_t nframes[kMaxThreads] = {};
  FrameNote frames[kMaxThreads][kMaxFrames] = {};

  void clear() {
    for (std::uint32_t i = 0; i < used; ++i) {
      name[i][0] = '\0';
      stack[i] = ThreadStack{};
      nframes[i] = 0;
    }
    used = 0;
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
  std::vector<ThreadStack> stacks() const { return {stack, stack + (used < kMaxThreads ? used : kMaxThreads)}; }
};

}  // namespace weft::rt
