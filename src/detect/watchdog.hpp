#pragma once
// A thread that blocks outside weft's control (a real syscall, a lock weft cannot see) or
// computes forever between scheduling points would hang the run. The watchdog notices
// that no step was taken for a while, samples where the running thread is, and reports
// a `hang` bug. The watching itself is HangWatch (hang_watch.hpp), which the fork server
// uses too, on an execution's child.
#include <pthread.h>

#include <atomic>
#include <cstdint>

#include "detect/bug_slot.hpp"
#include "detect/crash_handler.hpp"
#include "detect/stack_sample.hpp"

namespace weft::detect {

struct HangTarget {
  bool running = false;  // an execution is in progress and some thread holds the baton
  pid_t tid = 0;         // the kernel thread running it
  ThreadId thread = kNoThread;
};

class Watchdog {
 public:
  using TargetFn = HangTarget (*)();
  // Starts the watchdog thread (uncontrolled). It lives until the process ends.
  static void start(const std::atomic<std::uint64_t>* steps, TargetFn target, double timeout_s,
                    BugSlot* slot, FinishFn finish);
  // Only the sampling half, for a watchdog in another process: SIGURG stores the
  // interrupted pc (+1, read as a return address) and its callers into *out.
  static void install_sampler(StackSample* out);
  // A hang's place: the sample's pc and callers (none when the sample did not come).
  static void take_sample(BugSlot* slot, const StackSample& sample);
  // The message of a hang bug of `thread` after `timeout_s` seconds, blocked in the kernel
  // or (`computing`) running.
  static void describe_hang(BugSlot* slot, ThreadId thread, double timeout_s, bool computing);
};

}  // namespace weft::detect
