#include "report/text_report.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "records.hpp"

namespace weft {
namespace {

using weft_test::Site;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The line of the interleaving table for step `n` ("  >12  ..."), "" when not shown.
std::string step_line(const std::string& text, std::size_t n) {
  bool in_table = false;
  for (const std::string& line : lines_of(text)) {
    if (line.starts_with("interleaving (")) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (!line.starts_with("  ")) break;
    std::istringstream in(line);
    std::string first;
    in >> first;
    if (!first.empty() && first[0] == '>') first.erase(0, 1);
    if (first == std::to_string(n)) return line;
  }
  return {};
}

// The interleaving's column heads: each thread's label and where its column starts.
std::vector<std::pair<std::string, std::size_t>> lanes(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  auto it = std::find_if(lines.begin(), lines.end(),
                         [](const std::string& l) { return l.starts_with("interleaving ("); });
  std::vector<std::pair<std::string, std::size_t>> heads;
  if (it == lines.end() || it + 1 == lines.end()) return heads;
  const std::string& head = it[1];
  for (std::size_t i = 0; i < head.size();) {
    if (head[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t end = head.find("  ", i);  // labels hold single spaces: "T1 (worker)"
    if (end == std::string::npos) end = head.size();
    heads.emplace_back(head.substr(i, end - i), i);
    i = end;
  }
  return heads;
}

// The thread whose column step `n`'s cell is in ("" when not shown or in none).
std::string step_thread(const std::string& text, std::size_t n) {
  const std::string line = step_line(text, n);
  if (line.empty()) return {};
  // The first non-blank after the step's number.
  const std::size_t cell = line.find_first_not_of(' ', line.find_first_of(' ', line.find_first_not_of(" >")));
  for (const auto& [label, at] : lanes(text))
    if (at == cell) return label;
  return {};
}

// What a report says, whatever the width: none (lines as long as this checkout's paths
// make them). text_width_test.cpp is about the width.
TextOptions unlimited() {
  TextOptions options;
  options.width = 0;
  return options;
}

TEST(TextReport, BugLineThenEveryStep) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  std::string text = format_text(run, sym, unlimited());
  SCOPED_TRACE(text);
  std::vector<std::string> lines = lines_of(text);
  ASSERT_FALSE(lines.empty());
  // First line: kind, message, where.
  Site s = weft_test::named_site(0);
  EXPECT_EQ(lines[0].rfind("bug: assertion: counter == 2 -- T0 at ", 0), 0u) << lines[0];
  EXPECT_TRUE(contains(lines[0], "sites.cpp:" + std::to_string(s.line)));
  EXPECT_TRUE(contains(lines[0], "in weft_test::named_site(int)"));
  // The source line of the bug's location.
  EXPECT_TRUE(contains(lines[1], std::to_string(s.line) + " | std::uintptr_t pc = return_address();"))
      << lines[1];

  for (std::size_t n = 1; n <= run.bugs[0].events.size(); ++n) {
    EXPECT_FALSE(step_line(text, n).empty()) << "step " << n;
  }
  // A column per thread, each step in its thread's.
  ASSERT_EQ(lanes(text).size(), 3u);
  EXPECT_EQ(lanes(text)[0].first, "T0");
  EXPECT_EQ(lanes(text)[2].first, "T2");
  const std::vector<std::string> thread_of = {"T0", "T0", "T1", "T2", "T2", "T1", "T0"};
  for (std::size_t n = 1; n <= thread_of.size(); ++n)
    EXPECT_EQ(step_thread(text, n), thread_of[n - 1]) << "step " << n;
  Site b = weft_test::other_site();
  std::string read = step_line(text, 3);
  EXPECT_TRUE(contains(read, "* read 0x5000  ")) << read;  // a preemption
  EXPECT_TRUE(contains(read, "sites.cpp:" + std::to_string(b.line))) << read;
  EXPECT_TRUE(contains(read, "weft_test::other_site()")) << read;
  EXPECT_FALSE(contains(step_line(text, 5), "* "));
  EXPECT_TRUE(contains(step_line(text, 1), "thread-create T1  ")) << step_line(text, 1);  // its target
  // The failing step is last and marked.
  std::string last = step_line(text, 7);
  EXPECT_TRUE(contains(last, ">7")) << last;
  EXPECT_TRUE(contains(last, "thread-join"));
  EXPECT_FALSE(contains(step_line(text, 6), ">"));

  EXPECT_TRUE(contains(text, "interleaving (7 steps, 2 preemptions; > marks the failing step, * a preemption):\n"));
  EXPECT_TRUE(contains(text, "\npreemptions: 2, steps: 7, found in execution 17 of 17\n"));
  EXPECT_TRUE(contains(text, "\nreplay: weft replay ./counter_test --schedule=<schedule>\n"));
  EXPECT_TRUE(contains(text, "\nschedule: " + run.bugs[0].schedule + "\n"));
  EXPECT_TRUE(contains(text, "\nrun: strategy pct, seed 42, 17 executions in 0.25 s, not complete\n"));
  EXPECT_TRUE(contains(text, "\ncoverage: 17 samples, no guarantee\n"));
  EXPECT_FALSE(contains(text, "synchronisation"));  // instrumented
}

TEST(TextReport, SourceLinesCanBeLeftOut) {
  Symbolizer sym;
  TextOptions options;
  options.source_lines = false;
  std::string text = format_text(weft_test::lost_update_run(), sym, options);
  EXPECT_FALSE(contains(text, "| ")) << text;
}

TEST(TextReport, LongRunsOfOneThreadAreFoldedButNotTheTail) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events.clear();
  bug.events.push_back(weft_test::event(0, OpKind::ThreadCreate, 0, pc, 0, 0, 1));
  bug.events.push_back(weft_test::event(1, OpKind::ThreadStart, 0, pc));
  for (int i = 0; i < 20; ++i) {  // steps 3..22: T1 alone, unremarkable
    bug.events.push_back(weft_test::event(1, i % 2 ? OpKind::Write : OpKind::Read, 0x5000, pc, 0, 4));
  }
  bug.events.push_back(weft_test::event(0, OpKind::MutexLock, 0x6000, pc, kPreemption));
  for (int i = 0; i < 20; ++i) {  // steps 24..43: T0 alone; the last 6 stay visible
    bug.events.push_back(weft_test::event(0, OpKind::Read, 0x5000, pc, 0, 4));
  }
  bug.step = bug.events.size();
  std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  // Each fold in its thread's column.
  const auto heads = lanes(text);
  ASSERT_EQ(heads.size(), 2u);
  // Step 22, T1's last write of what T0's failing step reads, is a culprit: not folded.
  const std::string fold1 = "... 19 steps folded (3-21: 10 read, 9 write)";
  const std::size_t at1 = text.find(fold1);
  ASSERT_NE(at1, std::string::npos);
  EXPECT_EQ(at1 - (text.rfind('\n', at1) + 1), heads[1].second);
  EXPECT_TRUE(step_line(text, 3).empty());
  EXPECT_TRUE(step_line(text, 21).empty());
  EXPECT_TRUE(contains(step_line(text, 22), "write 0x5000")) << "the write the failing read sees";
  EXPECT_FALSE(step_line(text, 2).empty());   // thread-start is notable
  EXPECT_FALSE(step_line(text, 23).empty());  // a preemption
  EXPECT_TRUE(contains(step_line(text, 23), "* mutex-lock 0x6000"));
  // T0's run: steps 24..37 fold (14 > 8); 38..43 are the unfolded tail.
  const std::string fold0 = "... 14 steps folded (24-37: 14 read)";
  const std::size_t at0 = text.find(fold0);
  ASSERT_NE(at0, std::string::npos);
  EXPECT_EQ(at0 - (text.rfind('\n', at0) + 1), heads[0].second);
  for (std::size_t n = 38; n <= 43; ++n) EXPECT_FALSE(step_line(text, n).empty()) << n;
  EXPECT_TRUE(contains(step_line(text, 43), ">43"));
}

// Issue #26: a lost wakeup in a destructor. T1 read `stop` (0x200) before T0 set it and
// broadcast (0x300), then waited: the store and the broadcast stay visible although they
// sit in long runs of T0's unremarkable steps, which still fold.
TEST(TextReport, TheMissedSignalAndTheFlagBeforeItAreNeverFolded) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  bug.kind = BugKind::kDeadlock;
  bug.message = "T1 waits on a condition variable, never signalled";
  const std::uintptr_t pc = weft_test::other_site().pc;
  const std::uintptr_t tidied = 0x100, stop = 0x200, cv = 0x300, m = 0x400;
  using weft_test::event;
  bug.events = {event(0, OpKind::ThreadStart, 0, pc), event(0, OpKind::ThreadCreate, 0, pc, 0, 0, 1)};
  for (int i = 0; i < 20; ++i) bug.events.push_back(event(0, OpKind::AtomicRmw, tidied, pc, 0, 4));  // 3-22
  bug.events.push_back(event(1, OpKind::ThreadStart, 0, pc, kPreemption));  // 23
  bug.events.push_back(event(1, OpKind::AtomicLoad, stop, pc, 0, 1));       // 24
  bug.events.push_back(event(1, OpKind::MutexLock, m, pc));                 // 25
  bug.events.push_back(event(0, OpKind::AtomicRmw, tidied, pc, kPreemption, 4));  // 26
  for (int i = 0; i < 6; ++i) bug.events.push_back(event(0, OpKind::AtomicRmw, tidied, pc, 0, 4));  // 27-32
  bug.events.push_back(event(0, OpKind::AtomicStore, stop, pc, 0, 1));       // 33
  bug.events.push_back(event(0, OpKind::CondBroadcast, cv, pc));            // 34
  for (int i = 0; i < 20; ++i) bug.events.push_back(event(0, OpKind::AtomicRmw, tidied, pc, 0, 4));  // 35-54
  Event wait = event(1, OpKind::CondWait, cv, pc);                           // 55
  set_cond_mutex(wait.op, m);
  bug.events.push_back(wait);
  Op wake = make_op(OpKind::CondWake, cv, pc);
  set_cond_mutex(wake, m);
  bug.blocked = {{0, make_op(OpKind::ThreadJoin, 0, pc, 0, 1)}, {1, wake}};
  bug.step = bug.events.size();
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_TRUE(contains(step_line(text, 33), "atomic-store 0x200")) << "the flag it missed";
  EXPECT_TRUE(contains(step_line(text, 34), "cond-broadcast 0x300")) << "the signal it missed";
  EXPECT_TRUE(contains(step_line(text, 24), "atomic-load 0x200"));
  // What touches none of the blocked threads' objects still folds.
  EXPECT_TRUE(contains(text, "... 20 steps folded (3-22: 20 atomic-rmw)"));
  EXPECT_TRUE(contains(text, "steps folded (35-"));
}

// The earlier access of a race, followed by a long run of its thread's steps.
TEST(TextReport, TheRacingAccessesAreNeverFolded) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  bug.kind = BugKind::kDataRace;
  bug.message = "write of 4 bytes by thread 1 races with an earlier read of 4 bytes by thread 0";
  const std::uintptr_t read_pc = weft_test::named_site(1).pc, write_pc = weft_test::other_site().pc;
  using weft_test::event;
  bug.events = {event(0, OpKind::ThreadStart, 0, write_pc), event(0, OpKind::ThreadCreate, 0, write_pc, 0, 0, 1),
                event(0, OpKind::Read, 0x5000, read_pc, 0, 4)};  // 3: the earlier access
  for (int i = 0; i < 20; ++i) bug.events.push_back(event(0, OpKind::AtomicRmw, 0x6000, write_pc, 0, 4));
  bug.events.push_back(event(1, OpKind::ThreadStart, 0, write_pc));
  bug.events.push_back(event(1, OpKind::Write, 0x5000, write_pc, 0, 4));  // 25: the later
  bug.step = bug.events.size();
  bug.has_race = true;
  bug.race.address = 0x5000;
  bug.race.later = {1, write_pc, true, 4, false};
  bug.race.earlier = {0, read_pc, false, 4, false};
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_TRUE(contains(step_line(text, 3), "read 0x5000")) << "the earlier access";
  EXPECT_TRUE(contains(step_line(text, 25), "write 0x5000"));
  EXPECT_TRUE(contains(text, "steps folded (4-"));
}

// A lock-order deadlock: every step of the two threads in the cycle is shown; a third
// thread's long run, outside it, folds.
TEST(TextReport, TheThreadsOfADeadlockCycleAreNeverFolded) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  bug.kind = BugKind::kDeadlock;
  bug.message = "no thread can run; 2 blocked";
  const std::uintptr_t pc = weft_test::other_site().pc;
  using weft_test::event;
  bug.events = {event(0, OpKind::MutexLock, 0xa000, pc)};
  for (int i = 0; i < 12; ++i) bug.events.push_back(event(0, OpKind::Read, 0x5000, pc, 0, 4));  // 2-13
  bug.events.push_back(event(1, OpKind::MutexLock, 0xb000, pc, kPreemption));                 // 14
  for (int i = 0; i < 12; ++i) bug.events.push_back(event(1, OpKind::Read, 0x5000, pc, 0, 4));  // 15-26
  bug.events.push_back(event(2, OpKind::Write, 0x7000, pc, kPreemption, 4));                    // 27
  for (int i = 0; i < 12; ++i) bug.events.push_back(event(2, OpKind::Write, 0x7000, pc, 0, 4));  // 28-39
  for (int i = 0; i < 7; ++i) bug.events.push_back(event(2, OpKind::Yield, 0, pc));              // the tail
  bug.blocked = {{0, make_op(OpKind::MutexLock, 0xb000, pc)}, {1, make_op(OpKind::MutexLock, 0xa000, pc)}};
  bug.step = bug.events.size();
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  for (std::size_t n = 1; n <= 26; ++n) EXPECT_FALSE(step_line(text, n).empty()) << n;
  EXPECT_TRUE(contains(text, "steps folded (28-")) << "T2 is not in the cycle";
}

TEST(TextReport, ShortRunsAreNotFolded) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events.clear();
  for (int i = 0; i < 16; ++i) bug.events.push_back(weft_test::event(0, OpKind::Read, 1, pc, 0, 4));
  std::string text = format_text(run, sym);
  // Steps 2..10 would be a run of 9 (folded); 8 of them are not.
  EXPECT_TRUE(contains(text, "... 9 steps folded (2-10: 9 read)")) << text;
  bug.events.resize(14);  // 2..8 = 7 unremarkable steps before the tail of 6
  text = format_text(run, sym);
  EXPECT_FALSE(contains(text, "folded")) << text;
  for (std::size_t n = 1; n <= 14; ++n) EXPECT_FALSE(step_line(text, n).empty()) << n;
}

// A livelock's trylock-and-yield loop: the failed trylocks are notable the first time
// only, so the loop folds; a failed trylock elsewhere is still shown.
TEST(TextReport, ARepeatedFailedTrylockFolds) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events.clear();
  bug.events.push_back(weft_test::event(0, OpKind::ThreadStart, 0, pc));
  bug.events.push_back(weft_test::event(0, OpKind::MutexTryLock, 0x6000, pc + 1, kFailed));
  bug.events.push_back(weft_test::event(0, OpKind::Write, 0x5000, pc, 0, 4));
  for (int i = 0; i < 500; ++i) {  // steps 4..1003
    bug.events.push_back(weft_test::event(0, OpKind::MutexTryLock, 0x6000, pc, kFailed));
    bug.events.push_back(weft_test::event(0, OpKind::Yield, 0, pc));
  }
  bug.step = bug.events.size();
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_LT(lines_of(text).size(), 40u);
  EXPECT_FALSE(step_line(text, 2).empty()) << "a failed trylock on its own";
  EXPECT_FALSE(step_line(text, 4).empty()) << "the loop's first";
  EXPECT_TRUE(step_line(text, 6).empty()) << "its repeats fold";
  EXPECT_TRUE(contains(text, "steps folded (5-"));
}

TEST(TextReport, DeadlockListsBlockedThreads) {
  Symbolizer sym;
  RunRecord run;
  run.strategy = "dfs";
  run.executions = 3;
  run.instrumented = true;
  BugRecord bug;
  bug.kind = BugKind::kDeadlock;
  bug.message = "no thread can run; 2 blocked";
  bug.execution = 3;
  Site a = weft_test::named_site(0), b = weft_test::other_site();
  bug.events = {weft_test::event(0, OpKind::MutexLock, 0xa000, a.pc),
                weft_test::event(1, OpKind::MutexLock, 0xb000, b.pc, kPreemption)};
  bug.blocked = {{0, make_op(OpKind::MutexLock, 0xb000, a.pc)},
                 {1, make_op(OpKind::MutexLock, 0xa000, b.pc)}};
  run.bugs.push_back(bug);
  std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_EQ(text.rfind("bug: deadlock: no thread can run; 2 blocked\n", 0), 0u);
  std::vector<std::string> lines = lines_of(text);
  auto header = std::find(lines.begin(), lines.end(), "blocked threads:");
  ASSERT_NE(header, lines.end());
  ASSERT_GE(lines.end() - header, 3);
  std::string t0 = header[1], t1 = header[2];
  EXPECT_EQ(t0.rfind("  T0  mutex-lock  0xb000", 0), 0u) << t0;
  EXPECT_TRUE(contains(t0, "sites.cpp:" + std::to_string(a.line)));
  EXPECT_TRUE(contains(t0, "weft_test::named_site(int)"));
  EXPECT_EQ(t1.rfind("  T1  mutex-lock  0xa000", 0), 0u) << t1;
  EXPECT_TRUE(contains(t1, "sites.cpp:" + std::to_string(b.line)));
  EXPECT_TRUE(contains(text, "preemptions: 1, steps: 2, found in execution 3 of 3"));
  // The kind is said once even when the message repeats it.
  run.bugs[0].message = "deadlock: all blocked";
  EXPECT_EQ(format_text(run, sym).rfind("bug: deadlock: all blocked\n", 0), 0u);
}

TEST(TextReport, NoBugIsOneLine) {
  Symbolizer sym;
  RunRecord run;
  run.strategy = "dfs";
  run.seed = 7;
  run.executions = 100;
  run.complete = true;
  run.instrumented = true;
  EXPECT_EQ(format_text(run, sym), "no bug found in 100 executions (dfs, seed 7, complete)\n");
  run.complete = false;
  run.strategy = "random";
  run.coverage.summary = "100 random schedules";
  EXPECT_EQ(format_text(run, sym),
            "no bug found in 100 executions (random, seed 7, budget; 100 random schedules)\n");
}

TEST(TextReport, SyncOnlyRunsSaySo) {
  Symbolizer sym;
  RunRecord run;
  run.strategy = "random";
  run.executions = 10;
  run.instrumented = false;
  std::vector<std::string> lines = lines_of(format_text(run, sym, unlimited()));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1],
            "note: only synchronisation calls were scheduling points (memory accesses not "
            "visible); build with weft's instrumentation to see them");
  // Within the default 100 columns, it wraps.
  lines = lines_of(format_text(run, sym));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[2], "  weft's instrumentation to see them");
  RunRecord with_bug = weft_test::lost_update_run();
  with_bug.instrumented = false;
  std::string text = format_text(with_bug, sym);
  EXPECT_TRUE(contains(text, "\nnote: only synchronisation calls were scheduling points")) << text;
}

TEST(TextReport, ErrorComesFirst) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  run.error = "replay diverged at step 4: T2 is not enabled";
  std::string text = format_text(run, sym);
  EXPECT_EQ(text.rfind("weft: error: replay diverged at step 4: T2 is not enabled\n\nbug: ", 0), 0u)
      << text;
  RunRecord bad_option;
  bad_option.error = "unknown strategy 'xyz'";
  EXPECT_EQ(format_text(bad_option, sym), "weft: error: unknown strategy 'xyz'\n");
}

TEST(TextReport, SeveralBugsAreNumbered) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord crash;
  crash.kind = BugKind::kCrash;
  crash.message = "SIGSEGV at 0x0";
  crash.thread = 2;
  crash.execution = 9;
  run.bugs.push_back(crash);
  std::string text = format_text(run, sym);
  EXPECT_TRUE(contains(text, "bug 1 of 2: assertion: counter == 2")) << text;
  EXPECT_TRUE(contains(text, "\nbug 2 of 2: crash: SIGSEGV at 0x0 -- T2\n")) << text;
  EXPECT_TRUE(contains(text, "interleaving: no steps recorded")) << text;
}

TEST(TextReport, ThreadsByTheirNamesHeapObjectsByTheirAllocation) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  bug.thread_names = {"", "adder", "reader"};
  Allocation block;
  block.address = 0x4ff8;  // the counter (0x5000) is 8 bytes into it
  block.size = 16;
  block.step = 1;
  block.thread = 0;
  block.pc = weft_test::named_site(2).pc;
  bug.allocations = {block};
  std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  ASSERT_EQ(lanes(text).size(), 3u);
  EXPECT_EQ(lanes(text)[0].first, "T0");
  EXPECT_EQ(lanes(text)[1].first, "T1 (adder)");
  EXPECT_EQ(lanes(text)[2].first, "T2 (reader)");
  EXPECT_EQ(step_thread(text, 4), "T2 (reader)");
  EXPECT_TRUE(contains(step_line(text, 1), "thread-create T1 (adder)")) << step_line(text, 1);
  EXPECT_TRUE(contains(step_line(text, 3), "* read heap#1+8  ")) << step_line(text, 3);
  std::vector<std::string> lines = lines_of(text);
  auto heap = std::find(lines.begin(), lines.end(), "heap objects:");
  ASSERT_NE(heap, lines.end());
  ASSERT_LT(heap + 1, lines.end());
  const Site site = weft_test::named_site(2);
  EXPECT_EQ(heap[1].rfind("  heap#1  16 bytes  allocated by T0 before step 2  ", 0), 0u) << heap[1];
  EXPECT_TRUE(contains(heap[1], "sites.cpp:" + std::to_string(site.line))) << heap[1];
}

TEST(TextReport, MemoryAllocatedAgainIsAnotherHeapObject) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events = {weft_test::event(1, OpKind::Write, 0x5008, pc, 0, 4),
                weft_test::event(1, OpKind::Read, 0x5008, pc, 0, 4),
                weft_test::event(2, OpKind::Read, 0x5008, pc, kPreemption, 4)};
  Allocation first, second;
  first.address = second.address = 0x5000;
  first.size = second.size = 16;
  first.thread = second.thread = 1;
  first.step = 0;
  second.step = 2;  // freed after step 2, then allocated again before step 3
  bug.allocations = {first, second};
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_TRUE(contains(step_line(text, 1), "write heap#1+8  "));
  EXPECT_TRUE(contains(step_line(text, 2), "read heap#1+8  "));
  EXPECT_TRUE(contains(step_line(text, 3), "* read heap#2+8  "));
}

TEST(TextReport, LocalsAreNamedByTheirThreadInTheOrderFirstTouched) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events = {weft_test::event(1, OpKind::Read, 0x7100, pc, 0, 4),
                weft_test::event(1, OpKind::MutexLock, 0x7000, pc),
                weft_test::event(2, OpKind::Write, 0x7100, pc, kPreemption, 4),
                weft_test::event(2, OpKind::Read, 0x9008, pc, 0, 4)};
  bug.thread_stacks = {ThreadStack{0x6000, 0x8000}, ThreadStack{}, ThreadStack{0x9000, 0xa000}};
  const std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_TRUE(contains(step_line(text, 1), "read stack#1 (T0)  ")) << step_line(text, 1);
  EXPECT_TRUE(contains(step_line(text, 2), "mutex-lock stack#2 (T0)  "));
  EXPECT_TRUE(contains(step_line(text, 3), "* write stack#1 (T0)  "));
  EXPECT_TRUE(contains(step_line(text, 4), "read stack#1 (T2)  "));
}

TEST(TextReport, ManyThreadsGetAThreadColumnInstead) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& bug = run.bugs[0];
  const std::uintptr_t pc = weft_test::other_site().pc;
  bug.events.clear();
  for (ThreadId t = 0; t < 8; ++t)
    bug.events.push_back(weft_test::event(t, OpKind::Read, 0x5000, pc, t ? kPreemption : 0, 4));
  bug.thread_names = {"", "", "", "", "", "", "", "last"};
  std::string text = format_text(run, sym);
  SCOPED_TRACE(text);
  EXPECT_TRUE(std::regex_search(step_line(text, 2), std::regex("^ +2  T1 +\\* read 0x5000  ")))
      << step_line(text, 2);
  EXPECT_TRUE(std::regex_search(step_line(text, 8), std::regex("^ +>8  T7 \\(last\\)  \\* read 0x5000  ")))
      << step_line(text, 8);
  TextOptions wide = unlimited();
  wide.max_thread_columns = 8;
  EXPECT_EQ(lanes(format_text(run, sym, wide)).size(), 8u);
  // Eight lanes do not fit 100 columns: a thread column again.
  wide.width = 100;
  EXPECT_TRUE(std::regex_search(step_line(format_text(run, sym, wide), 2), std::regex("^ +2  T1 +\\* read 0x5000  ")));
}

// Colour adds escapes and nothing else: without them, the very same layout.
TEST(TextReport, ColourChangesNoLayout) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  run.bugs[0].thread_names = {"main", "adder"};
  TextOptions colour;
  colour.colour = true;
  const std::string plain = format_text(run, sym);
  const std::string coloured = format_text(run, sym, colour);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  ASSERT_NE(coloured.find("\x1b[1;31mbug: assertion\x1b[0m"), std::string::npos) << coloured;
  std::string stripped;
  for (std::size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\x1b') {
      i = coloured.find('m', i);
      continue;
    }
    stripped += coloured[i];
  }
  EXPECT_EQ(stripped, plain);
  // weft merge rewrites these lines: never coloured.
  EXPECT_NE(coloured.find("\nrun: strategy pct"), std::string::npos);
  EXPECT_NE(coloured.find("\ncoverage: "), std::string::npos);
}

TEST(TextReport, UnknownLocationsStillFormat) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  for (Event& e : run.bugs[0].events) e.op.pc = 0xdeadbeef;
  run.bugs[0].pc = 0;
  std::string text = format_text(run, sym);
  EXPECT_EQ(text.rfind("bug: assertion: counter == 2 -- T0\n", 0), 0u) << text;
  EXPECT_FALSE(step_line(text, 3).empty()) << text;
  // Code with no symbol (here libc's ELF header, mapped like its code): its library.
  Dl_info info{};
  // libc's write, not the first definition (a sanitizer's interceptor, in test-asan).
  ASSERT_NE(dladdr(dlsym(dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD), "write"), &info), 0);
  run.bugs[0].pc = reinterpret_cast<std::uintptr_t>(info.dli_fbase) + 0x11;
  text = format_text(run, sym);
  EXPECT_EQ(text.rfind("bug: assertion: counter == 2 -- T0 in libc.so.6\n", 0), 0u) << text;
}

}  // namespace
}  // namespace weft
