#include "detect/hang_watch.hpp"

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "detect/watchdog.hpp"
#include "sys/os.hpp"

namespace weft::detect {
namespace {

std::uint64_t limit_of(double timeout_s) { return static_cast<std::uint64_t>(timeout_s * 1e9); }

void sleep_ns(long ns) {
  struct timespec ts {
    0, ns
  };
  // Not nanosleep, which weft interposes (harmless here, but not weft's own business).
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
  }
}

}  // namespace

HangWatch::HangWatch(double timeout_s) : timeout_s_(timeout_s), judge_(limit_of(timeout_s)) {}

void HangWatch::reset() {
  judge_ = StallJudge(limit_of(timeout_s_));
  looked_steps_ = ~std::uint64_t{0};
  last_ = ThreadActivity{};
}

bool HangWatch::hung(std::uint64_t now_ns, std::uint64_t steps, pid_t pid, pid_t tid) {
  const bool moved = steps != looked_steps_;
  looked_steps_ = steps;
  // By the holder's own state and CPU time, not wall time alone (stall_judge.hpp).
  last_ = !moved && tid != 0 ? read_thread_activity(pid, tid) : ThreadActivity{};
  return judge_.hung(now_ns, steps, last_);
}

void HangWatch::record(pid_t pid, pid_t tid, ThreadId thread, StackSample* sample,
                       BugSlot* slot) const {
  if (tid != 0) {
    sample->pc.store(0);
    if (pid == 0)
      os::signal_thread(tid, SIGURG);
    else
      syscall(SYS_tgkill, pid, tid, SIGURG);
    for (int i = 0; i < 40 && sample->pc.load() == 0; ++i) sleep_ns(5'000'000);
  }
  if (!slot->claim()) return;
  Watchdog::take_sample(slot, *sample);
  Watchdog::describe_hang(slot, thread, timeout_s_, last_.ok && last_.state == 'R');
  slot->publish();
}

}  // namespace weft::detect
