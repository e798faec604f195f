#include "runtime/signals.hpp"

#include <atomic>

namespace weft::rt::signals {
namespace {

std::atomic<bool> g_active{false};

sigset_t make_async_set() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig = 1; sig < NSIG; ++sig)
    if (is_async(sig)) sigaddset(&s, sig);
  return s;
}

}  // namespace

bool is_async(int sig) {
  switch (sig) {
    case SIGSEGV:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGTRAP:
    case SIGSYS:
    case SIGABRT:
    case SIGKILL:
    case SIGSTOP:
    case SIGURG:  // weft's hang sampler
      return false;
    default:
      // 32 and 33 are glibc's own (cancellation, setxid): SIGRTMIN starts after them.
      return (sig >= 1 && sig < 32) || (sig >= SIGRTMIN && sig <= SIGRTMAX);
  }
}

void note_disposition(int sig, bool handled) {
  if (handled && is_async(sig)) g_active.store(true, std::memory_order_relaxed);
}

bool active() { return g_active.load(std::memory_order_relaxed); }

const sigset_t& async_set() {
  static const sigset_t set = make_async_set();
  return set;
}

}  // namespace weft::rt::signals
