#include "report/location.hpp"

#include <gtest/gtest.h>

#include "records.hpp"
#include "report/symbolized_steps.hpp"

namespace weft {
namespace {

using weft_test::Site;

Frame frame(std::string file, std::string module, std::string function = "f()") {
  Frame f;
  f.function = std::move(function);
  f.file = std::move(file);
  f.line = 3;
  f.module = std::move(module);
  return f;
}

TEST(Location, UserFrames) {
  EXPECT_TRUE(is_user_frame(frame("/home/me/src/counter.cpp", "counter_test")));
  EXPECT_TRUE(is_user_frame(frame("/home/me/src/lib.cpp", "libmine.so")));
  EXPECT_FALSE(is_user_frame(frame("/usr/include/c++/12/bits/std_mutex.h", "counter_test")));
  EXPECT_FALSE(is_user_frame(frame("/usr/lib/gcc/x86_64-linux-gnu/12/include/x.h", "t")));
  EXPECT_FALSE(is_user_frame(frame("./nptl/pthread_mutex_lock.c", "libc.so.6")));
  EXPECT_FALSE(is_user_frame(frame("../src/x.cc", "libstdc++.so.6")));
  EXPECT_FALSE(is_user_frame(frame("", "counter_test")));  // no file: nothing to show
  EXPECT_FALSE(is_user_frame(frame("../../src/libsanitizer/tsan/tsan_rtl.cpp", "libtsan.so.2")));
  EXPECT_FALSE(is_user_frame(frame("/work/x/src/runtime/controller.cpp", "libweft.so")));
  // weft's own sources linked statically into a test binary are weft's, not the user's.
  EXPECT_FALSE(is_user_frame(frame(WEFT_TEST_SOURCE_DIR "explore/explorer.cpp", "t")));
  EXPECT_TRUE(is_user_frame(frame(weft_test::sites_file(), "report_test")));  // weft's tests
}

TEST(Location, PrefersTheUsersFrameAmongCallers) {
  Symbolizer sym;
  Site user = weft_test::named_site(0);
  Event e = weft_test::event(1, OpKind::MutexLock, 0x1000, weft_test::libc_pc());
  e.callers[0] = 0;  // unknown frames are skipped
  e.callers[1] = user.pc;
  Frame f = choose_location(e, sym);
  EXPECT_EQ(f.function, "weft_test::named_site(int)");
  EXPECT_EQ(f.line, user.line);
}

TEST(Location, FallsBackToTheFirstFrameThatSymbolizes) {
  Symbolizer sym;
  Event e = weft_test::event(1, OpKind::MutexLock, 0x1000, weft_test::libc_pc());
  Frame f = choose_location(e, sym);
  EXPECT_EQ(f.module.rfind("libc.so", 0), 0u);
  EXPECT_FALSE(f.function.empty());
  Event unknown = weft_test::event(1, OpKind::MutexLock, 0x1000, 0xdeadbeef);
  EXPECT_FALSE(choose_location(unknown, sym).known());
}

TEST(Location, InnermostUserFrameOfAnInlineChainWins) {
  Symbolizer sym;
  Site site = weft_test::inlined_site();
  Frame f = choose_location(weft_test::event(0, OpKind::Read, 1, site.pc), sym);
  EXPECT_EQ(f.function, "weft_test::inlined_helper(int*)");
  EXPECT_EQ(f.line, site.inner_line);
}

TEST(Location, InlinedLibraryHeaderShowsTheUsersCallSite) {
  Symbolizer sym;
  Site site = weft_test::header_site();
  const std::vector<Frame>& chain = sym.frames(site.pc);
  ASSERT_GE(chain.size(), 2u);
  EXPECT_EQ(chain[0].file.rfind("/usr/include/", 0), 0u) << chain[0].file;
  EXPECT_NE(chain[0].function.find("std::for_each<"), std::string::npos) << chain[0].function;
  Frame f = choose_location(weft_test::event(0, OpKind::MutexLock, 1, site.pc), sym);
  EXPECT_EQ(f.function, "weft_test::header_site()");
  EXPECT_EQ(f.line, site.line);
}

TEST(Location, BugLocationFromSourceFileMatchesDebugInfo) {
  Symbolizer sym;
  Site site = weft_test::named_site(0);
  BugRecord bug;
  bug.pc = site.pc;
  bug.source_file = "../tests/report/sites.cpp";  // as __FILE__ may spell it
  bug.source_line = site.line;
  Frame f = bug_location(bug, sym);
  EXPECT_EQ(f.file, sym.symbolize(site.pc).file);  // the absolute path from debug info
  EXPECT_EQ(f.function, "weft_test::named_site(int)");

  bug.source_file = "elsewhere.cpp";
  bug.source_line = 7;
  f = bug_location(bug, sym);
  EXPECT_EQ(f.file, "elsewhere.cpp");
  EXPECT_EQ(f.line, 7);
  EXPECT_EQ(f.function, "weft_test::named_site(int)");
}

TEST(Location, BugLocationOfARaceIsItsThreadsLastStep) {
  Symbolizer sym;
  Site a = weft_test::named_site(0), b = weft_test::other_site();
  BugRecord bug;
  bug.kind = BugKind::kDataRace;
  bug.thread = 1;
  bug.events = {weft_test::event(1, OpKind::Write, 8, b.pc, 0, 4),
                weft_test::event(2, OpKind::Write, 8, a.pc, 0, 4)};
  EXPECT_EQ(bug_location(bug, sym).line, b.line);
  bug.kind = BugKind::kDeadlock;  // no step stands for a deadlock
  EXPECT_FALSE(bug_location(bug, sym).known());
}

TEST(SymbolizedSteps, OnePerEventWithTheChosenLocation) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  const BugRecord& bug = run.bugs[0];
  std::vector<Step> steps = symbolize_steps(bug, sym);
  ASSERT_EQ(steps.size(), bug.events.size());
  Site b = weft_test::other_site();
  const Step& s = steps[2];
  EXPECT_EQ(s.step, 3u);
  EXPECT_EQ(s.thread, 1u);
  EXPECT_EQ(s.op, "read");
  EXPECT_EQ(s.object, 0x5000u);
  EXPECT_EQ(s.size, 4u);
  EXPECT_TRUE(s.preemption);
  EXPECT_EQ(s.function, "weft_test::other_site()");
  EXPECT_EQ(s.line, b.line);
  EXPECT_NE(s.file.find("sites.cpp"), std::string::npos);
  EXPECT_FALSE(steps[4].preemption);
  EXPECT_EQ(steps[0].op, "thread-create");
}

}  // namespace
}  // namespace weft
