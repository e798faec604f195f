// The one hang watch (detect/hang_watch.hpp), on a real thread of this process blocked in
// the kernel: hung once blocked for the limit, and recorded with its place and why.
#include "detect/hang_watch.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include "detect/watchdog.hpp"
#include "sys/os.hpp"

namespace weft::detect {
namespace {

TEST(HangWatch, AThreadBlockedInTheKernelIsRecordedAsAHang) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::atomic<pid_t> tid{0};
  std::thread blocked([&] {
    tid = static_cast<pid_t>(syscall(SYS_gettid));
    char c;
    (void)!read(fds[0], &c, 1);  // until the test writes
  });
  while (tid.load() == 0) std::this_thread::yield();
  StackSample sample;
  Watchdog::install_sampler(&sample);
  HangWatch watch(0.05);
  bool hung = false;
  // No step is ever taken: hung once blocked for 50 ms, whatever the machine's load (a
  // blocked thread needs no CPU); the cap only keeps a broken watch from hanging the test.
  for (int look = 0; look < 3000 && !hung; ++look) {
    hung = watch.hung(os::monotonic_ns(), 7, 0, tid.load());
    if (!hung) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(hung);
  BugSlot slot;
  watch.record(0, tid.load(), 3, &sample, &slot);
  EXPECT_EQ(slot.kind, static_cast<int>(BugKind::kHang));
  EXPECT_EQ(slot.thread, 3u);
  EXPECT_NE(slot.pc, 0u) << "the SIGURG sample gave the blocked thread's place";
  EXPECT_NE(std::string(slot.message).find("thread 3 is blocked outside weft's control"),
            std::string::npos)
      << slot.message;
  // A bug claimed first is kept.
  watch.record(0, tid.load(), 4, &sample, &slot);
  EXPECT_EQ(slot.thread, 3u);
  (void)!write(fds[1], "x", 1);
  blocked.join();
  close(fds[0]);
  close(fds[1]);
}

TEST(HangWatch, StepsTakenAreNotAHangAndResetForgetsTheStall) {
  HangWatch watch(0.05);
  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  std::uint64_t now = os::monotonic_ns();
  for (std::uint64_t steps = 1; steps < 50; ++steps, now += 100'000'000)
    EXPECT_FALSE(watch.hung(now, steps, 0, self));
  watch.reset();
  EXPECT_FALSE(watch.hung(now, 50, 0, 0));
}

}  // namespace
}  // namespace weft::detect
