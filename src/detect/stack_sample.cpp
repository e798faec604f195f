#include "detect/stack_sample.hpp"

#include <execinfo.h>

namespace weft::detect {

void warm_up_unwinder() {
  void* frames[2];
  backtrace(frames, 2);
}

void interrupted_callers(std::uintptr_t pc, std::uintptr_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = 0;
  constexpr int kMost = 64;  // the handler's frames, the trampoline's, then the program's
  void* frames[kMost];
  const int got = backtrace(frames, kMost);
  // The unwinder gives the interrupted frame's exact pc (a signal frame's is not a return
  // address); what follows it are its callers.
  int at = -1;
  for (int i = 0; i < got && at < 0; ++i)
    if (reinterpret_cast<std::uintptr_t>(frames[i]) == pc) at = i;
  if (at < 0) return;
  std::size_t k = 0;
  for (int i = at + 1; i < got && k < n; ++i)
    out[k++] = reinterpret_cast<std::uintptr_t>(frames[i]);
}

}  // namespace weft::detect
