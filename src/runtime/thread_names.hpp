#pragma once
// The names the program gave its threads in the current execution (pthread_setname_np):
// reports label threads with them. In memory shared with the supervising process, fixed
// size, so that the last names survive the execution's process.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace weft::rt {

struct ThreadNames {
  static constexpr std::uint32_t kMaxThreads = 256;  // later threads stay unnamed
  static constexpr std::size_t kMaxLength = 16;      // Linux's limit, with the NUL

  std::uint32_t used = 0;  // threads [0, used) may have a name
  char names[kMaxThreads][kMaxLength] = {};

  void clear() {
    for (std::uint32_t i = 0; i < used; ++i) names[i][0] = '\0';
    used = 0;
  }
  void set(ThreadId thread, const char* name) {
    if (thread >= kMaxThreads || name == nullptr) return;
    std::strncpy(names[thread], name, kMaxLength - 1);
    names[thread][kMaxLength - 1] = '\0';
    if (thread >= used) used = thread + 1;
  }
  std::vector<std::string> read() const {
    std::vector<std::string> out;
    for (std::uint32_t i = 0; i < used && i < kMaxThreads; ++i)
      out.emplace_back(names[i], strnlen(names[i], kMaxLength));
    return out;
  }
};

}  // namespace weft::rt
