#include "detect/watchdog.hpp"

#include "detect/hang_watch.hpp"

#include <signal.h>
#include <time.h>
#include <ucontext.h>

#include <cstring>

#include "sys/os.hpp"

namespace weft::detect {
namespace {

struct State {
  const std::atomic<std::uint64_t>* steps;
  Watchdog::TargetFn target;
  double timeout_s;
  BugSlot* slot;
  FinishFn finish;
};
State g_state;
StackSample g_sampled;
StackSample* g_sample_out = &g_sampled;

void on_sample(int, siginfo_t*, void* uctx) {
  auto* uc = static_cast<ucontext_t*>(uctx);
#if defined(__x86_64__)
  const auto pc = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  const auto pc = static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  const std::uintptr_t pc = 0;
#endif
  interrupted_callers(pc, g_sample_out->callers, StackSample::kFrames);
  g_sample_out->pc.store(pc + 1);  // +1: read as a return address, like a crash's
}

void install_sample_handler() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = &on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGURG, &sa, nullptr);
}

void sleep_ms(long ms) {
  struct timespec ts {
    ms / 1000, (ms % 1000) * 1000000
  };
  // The raw syscall: nanosleep is interposed (harmless here, this thread is uncontrolled).
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
  }
}

void* run(void*) {
  // weft's own thread: the program's signals are for the program's threads.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  const State& s = g_state;
  HangWatch watch(s.timeout_s);
  for (;;) {
    sleep_ms(HangWatch::kLookEveryNs / 1000000);
    const HangTarget t = s.target();
    if (!t.running) {  // between executions nothing can hang
      watch.reset();
      continue;
    }
    if (!watch.hung(os::monotonic_ns(), s.steps->load(std::memory_order_relaxed), 0, t.tid))
      continue;
    watch.record(0, t.tid, t.thread, &g_sampled, s.slot);
    s.finish();
  }
  return nullptr;
}

}  // namespace

void Watchdog::install_sampler(StackSample* out) {
  g_sample_out = out;
  install_sample_handler();
}

void Watchdog::take_sample(BugSlot* slot, const StackSample& sample) {
  slot->pc = sample.pc.load();
  for (std::size_t i = 0; i < StackSample::kFrames; ++i)
    slot->callers[i] = slot->pc != 0 ? sample.callers[i] : 0;
}

void Watchdog::describe_hang(BugSlot* slot, ThreadId thread, double timeout_s, bool computing) {
  slot->kind = static_cast<int>(BugKind::kHang);
  slot->thread = thread;
  copy_text(slot->message, sizeof slot->message, "thread ");
  append_dec(slot->message, sizeof slot->message, thread);
  append_text(slot->message, sizeof slot->message,
              computing ? " computes outside weft's view (no scheduling point in "
                        : " is blocked outside weft's control (no scheduling point for ");
  const auto tenths = static_cast<std::uint64_t>(timeout_s * 10 + 0.5);
  append_dec(slot->message, sizeof slot->message, tenths / 10);
  if (tenths % 10 != 0) {
    append_text(slot->message, sizeof slot->message, ".");
    append_dec(slot->message, sizeof slot->message, tenths % 10);
  }
  append_text(slot->message, sizeof slot->message,
              computing ? " s of its own CPU time): a loop on memory weft does not see (a spin "
                          "on an atomic or a flag in code built without weft-cc or weft-c++, "
                          "whose accesses would be scheduling points and such a spin a "
                          "livelock), or a long computation"
                        : " s): a system call, a lock weft does not model, or a long computation");
}

void Watchdog::start(const std::atomic<std::uint64_t>* steps, TargetFn target, double timeout_s,
                     BugSlot* slot, FinishFn finish) {
  g_state = State{steps, target, timeout_s, slot, finish};
  warm_up_unwinder();
  install_sample_handler();
  pthread_t t;
  os::create_thread(&t, nullptr, &run, nullptr);
}

}  // namespace weft::detect
