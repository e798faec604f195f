// The command line's contract, end to end: `weft run` / `weft replay` on whole programs,
// exit codes (0 no bug, 1 bug, 2 usage or tool error), the JSON fields, bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/headless_chromium.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;          // weft, weft-cc and the test programs
const std::string kSources = WEFT_PROGRAMS_DIR;  // tests/cli/programs

using weft::test::Output;
using weft::test::sh;

std::string weft() { return kBin + "/weft"; }

class Cli : public weft::test::TempDirTest {
 protected:
  std::string in_dir(const std::string& name) const { return (dir_ / name).string(); }
  nlohmann::json run_json(const std::string& args, int expect_status) {
    return run_json_cmd(weft() + " run --json - " + args, expect_status);
  }
  nlohmann::json run_json_cmd(const std::string& command, int expect_status) {
    Output o = sh("cd " + dir_.string() + " && " + command);
    EXPECT_EQ(o.status, expect_status) << command << "\n" << o.out;
    // A replay's program prints to stderr, merged here: the JSON starts on its own line.
    const std::size_t start = o.out.rfind("\n{\n") == std::string::npos ? 0 : o.out.rfind("\n{\n") + 1;
    auto j = nlohmann::json::parse(o.out.substr(start), nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << o.out;
    return j;
  }
};

TEST_F(Cli, DeadlockIsFoundWrittenAndReplayed) {
  const std::string program = kBin + "/cli_deadlock";
  Output o = sh("cd " + dir_.string() + " && " + weft() + " run -s dfs -n 0 -- " + program);
  ASSERT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("bug: deadlock"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("deadlock: starting"), std::string::npos) << "the failing run's output";
  const std::string schedule = in_dir("cli_deadlock.weft-schedule");
  ASSERT_TRUE(fs::exists(schedule)) << o.out;
  for (int i = 0; i < 3; ++i) {
    Output r = sh(weft() + " replay " + schedule + " -- " + program);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("bug: deadlock: cycle"), std::string::npos) << r.out;
  }
}

// Threads by the names the program gave them, a heap object by the pointer that held it
// (tally->count) and where `new` made it, a column per thread; colour only when asked for
// (or on a terminal).
TEST_F(Cli, ReportsNameThreadsAndHeapObjects) {
  const std::string program = " -- " + kBin + "/cli_named_heap";
  const std::string run = weft() + " run -s dfs -n 0";
  Output o = sh("cd " + dir_.string() + " && " + run + program);
  ASSERT_EQ(o.status, 1) << o.out;
  EXPECT_EQ(o.out.find('\x1b'), std::string::npos) << "not a terminal: no colour";
  EXPECT_NE(o.out.find("T1 (adder-a)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("T2 (adder-b)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\nrace on tally->count at 0x"), std::string::npos) << o.out;
  EXPECT_TRUE(std::regex_search(o.out, std::regex("\n +T0 +T1 \\(adder-a\\) +T2 \\(adder-b\\)\n")))
      << "a column per thread\n" << o.out;
  std::ifstream source(kSources + "/named_heap.cpp");
  int line = 0, new_line = 0;
  for (std::string text; std::getline(source, text);) {
    ++line;
    if (text.find("// NEW-TALLY") != std::string::npos) new_line = line;
  }
  ASSERT_NE(new_line, 0);
  const std::size_t heap =
      o.out.find("\nheap objects:\n  *tally (heap#1)  16 bytes  allocated by T0");
  ASSERT_NE(heap, std::string::npos) << o.out;
  EXPECT_NE(o.out.find("named_heap.cpp:" + std::to_string(new_line), heap), std::string::npos)
      << o.out;

  nlohmann::json j = run_json("-s dfs -n 0 -- " + kBin + "/cli_named_heap", 1);
  const auto& bug = j["bugs"][0];
  EXPECT_EQ(bug["thread_names"], nlohmann::json::parse(
                                     R"([{"thread": 1, "name": "adder-a"}, {"thread": 2, "name": "adder-b"}])"));
  ASSERT_EQ(bug["heap_objects"].size(), 1u) << bug;
  EXPECT_EQ(bug["heap_objects"][0]["size"], 16);
  EXPECT_EQ(bug["heap_objects"][0]["location"]["line"], new_line);
  EXPECT_EQ(bug["heap_objects"][0]["name"], "heap#1");
  EXPECT_EQ(bug["heap_objects"][0]["label"], "*tally (heap#1)");
  EXPECT_EQ(bug["race"]["object_name"], "tally->count");
  // Every access a step: every object is named (main's locals too), none is an address.
  nlohmann::json lost = run_json("-s pb --races off --preempt-on all -- " + kBin + "/cli_named_heap", 1);
  for (const auto& step : lost["bugs"][0]["trace"])
    EXPECT_FALSE(step["object_name"].get<std::string>().starts_with("0x")) << step;

  // The page and the trace events name them too.
  const std::string page = in_dir("named.html"), trace = in_dir("named.json");
  Output pictured = sh("cd " + dir_.string() + " && " + run + " --html " + page + " --trace-out " +
                       trace + program);
  EXPECT_EQ(pictured.status, 1) << pictured.out;
  std::ifstream page_in(page), trace_in(trace);
  const std::string html(std::istreambuf_iterator<char>(page_in), {});
  EXPECT_NE(html.find("data-thread=\"1\">T1 (adder-a)</div>"), std::string::npos) << html;
  EXPECT_NE(html.find("race on <code>tally-&gt;count</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("<h2>Heap objects</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("named_heap.cpp:" + std::to_string(new_line)), std::string::npos) << html;
  const nlohmann::json events = nlohmann::json::parse(trace_in, nullptr, false);
  ASSERT_FALSE(events.is_discarded());
  std::set<std::string> tracks;
  for (const auto& e : events["traceEvents"])
    if (e.value("name", "") == "thread_name") tracks.insert(e["args"]["name"].get<std::string>());
  EXPECT_EQ(tracks, (std::set<std::string>{"T0", "T1 (adder-a)", "T2 (adder-b)"})) << events;

  Output coloured = sh("cd " + dir_.string() + " && " + run + " --color always" + program);
  EXPECT_EQ(coloured.status, 1);
  EXPECT_NE(coloured.out.find("\x1b[1;31mbug: data-race\x1b[0m"), std::string::npos) << coloured.out;
  // On a terminal (script(1) gives one), coloured unless NO_COLOR says otherwise.
  auto on_terminal = [&](const std::string& env) {
    const std::string typescript = in_dir("typescript");
    sh("cd " + dir_.string() + " && " + env + " script -qec \"" + run + program + "\" " +
       typescript + " > /dev/null");
    std::ifstream in(typescript);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string terminal = on_terminal("");
  EXPECT_NE(terminal.find("\x1b[1;31mbug: data-race\x1b[0m"), std::string::npos) << terminal;
  const std::string no_color = on_terminal("NO_COLOR=1");
  EXPECT_NE(no_color.find("bug: data-race"), std::string::npos) << no_color;
  EXPECT_EQ(no_color.find("\x1b[1;31m"), std::string::npos) << no_color;
  Output bad = sh(weft() + " run --color sometimes -- " + kBin + "/cli_named_heap");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("must be one of auto, always, never, not 'sometimes'"), std::string::npos)
      << bad.out;
}

// An execution that does not follow its schedule (CHESS 4.2): said precisely, with no
// coverage claim, and the run not complete even though the tree ran out.
TEST_F(Cli, AProgramThatDoesNotFollowItsScheduleGetsNoCoverageClaim) {
  const std::string args = "-s dfs -n 0 -- " + kBin + "/cli_not_reproducible " + in_dir("runs");
  nlohmann::json j = run_json(args, 0);
  EXPECT_FALSE(j["complete"].get<bool>()) << j;
  EXPECT_FALSE(j["coverage"]["complete"].get<bool>()) << j;
  const std::string what = j["coverage"]["nondeterminism"];
  EXPECT_EQ(what.rfind("not reproducible: execution ", 0), 0u) << what;
  EXPECT_NE(what.find(", decision "), std::string::npos) << what;
  EXPECT_NE(j["coverage"]["summary"].get<std::string>().find(what + ": no coverage claim"),
            std::string::npos) << j;
  Output o = sh("cd " + dir_.string() + " && " + weft() + " run " + args);
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find(", budget; dfs: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("not reproducible: execution "), std::string::npos) << o.out;
  // A deterministic program: complete, nothing to say.
  nlohmann::json ok = run_json("-s dfs -n 0 -- " + kBin + "/cli_locked", 0);
  EXPECT_TRUE(ok["complete"].get<bool>());
  EXPECT_EQ(ok["coverage"]["nondeterminism"], "");
}

// weft replay --gdb-batch: gdb (not weft's runtime in gdb) runs the replay, follows the
// execution into the fork server's child, stops where the bug is recorded with the
// program's frames on the stack, and weft still prints the replay's report.
TEST_F(Cli, ReplayUnderGdbStopsAtTheBugAndStillReports) {
  if (sh("command -v gdb").status != 0) GTEST_SKIP() << "gdb is not installed";
  const std::string program = kBin + "/cli_assert_order";
  const std::string schedule = in_dir("assert.weft-schedule");
  Output o = sh(weft() + " run -q -s dfs -n 0 --schedule-out " + schedule + " -- " + program);
  ASSERT_EQ(o.status, 1) << o.out;
  Output g = sh(weft() + " replay --gdb-batch " + schedule + " -- " + program + " </dev/null");
  EXPECT_EQ(g.status, 1) << "the replayed bug's status\n" << g.out;
  EXPECT_FALSE(g.has("recorded for another program")) << "the runtime was loaded into gdb\n" << g.out;
  EXPECT_TRUE(g.has("hit Breakpoint 1, weft::explorer::ChildSink::on_bug")) << g.out;
  EXPECT_TRUE(g.has("weft: the replayed execution shows its bug here")) << g.out;
  // gdb's backtrace, in the failing thread: the assertion inside the program's functions.
  EXPECT_TRUE(g.has(" in check_value (v=v@entry=0) at ") || g.has(" in check_value (v=0) at ")) << g.out;
  EXPECT_TRUE(g.has("assert_order.c:14")) << g.out;
  EXPECT_TRUE(g.has(" in reader (")) << g.out;
  EXPECT_TRUE(g.has("[Inferior 2 (process ")) << "gdb followed the execution's process\n" << g.out;
  EXPECT_TRUE(g.has("bug: assertion: assert(v == 42) failed")) << "the replay's report\n" << g.out;
  EXPECT_TRUE(g.has("found in execution 1 of 1")) << g.out;

  // Without gdb: one line, exit status 2.
  Output none = sh("env PATH=/nonexistent " + weft() + " replay --gdb " + schedule + " -- " + program);
  EXPECT_EQ(none.status, 2) << none.out;
  EXPECT_EQ(none.out, "weft: --gdb needs gdb, which is not in PATH (install it: apt-get install gdb)\n");
}

// pthread_cancel (deferred): a thread cancelled in a condition wait, a semaphore wait, at
// pthread_testcancel after re-enabling cancellation, or never (it finished first) ends as
// POSIX says in every schedule; without its cleanup handler the cancelled waiter keeps
// the mutex and main deadlocks on it.
TEST_F(Cli, CancelledThreadsRunTheirCleanupInEverySchedule) {
  const std::string program = kBin + "/cli_cancel";
  nlohmann::json ok = run_json("-s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(ok["complete"].get<bool>()) << ok;
  EXPECT_GT(ok["executions"].get<int>(), 100) << "the cancels interleave with their targets";
  nlohmann::json bug = run_json("-s dfs -n 0 -- " + program + " forget-cleanup", 1);
  ASSERT_EQ(bug["bugs"].size(), 1u) << bug;
  EXPECT_EQ(bug["bugs"][0]["kind"], "deadlock");
  EXPECT_EQ(bug["bugs"][0]["message"], "T0 waits for T1 (to unlock a mutex)");
  bool cancel_step = false;
  for (const auto& step : bug["bugs"][0]["trace"])
    cancel_step |= step["op"] == "thread-cancel" && step["target"] == 1;
  EXPECT_TRUE(cancel_step) << bug;
  // dpor's race analysis does not follow cancellation: it says so, and claims nothing.
  nlohmann::json dpor = run_json("-s dpor -n 0 -- " + program, 0);
  EXPECT_FALSE(dpor["complete"].get<bool>()) << dpor;
  EXPECT_NE(dpor["coverage"]["summary"].get<std::string>().find("cancels threads"), std::string::npos)
      << dpor;
}

TEST_F(Cli, JsonResultHasTheContractFields) {
  nlohmann::json j = run_json("-s dfs -n 0 -- " + kBin + "/cli_deadlock", 1);
  for (const char* f : {"version", "program", "args", "strategy", "seed", "executions",
                        "elapsed_s", "complete", "instrumented", "bugs"})
    EXPECT_TRUE(j.contains(f)) << f;
  EXPECT_EQ(j["version"], 2);
  EXPECT_EQ(j["strategy"], "dfs");
  EXPECT_FALSE(j["instrumented"].get<bool>());
  ASSERT_EQ(j["bugs"].size(), 1u);
  const auto& bug = j["bugs"][0];
  for (const char* f : {"kind", "message", "execution", "preemptions", "schedule", "trace"})
    EXPECT_TRUE(bug.contains(f)) << f;
  EXPECT_EQ(bug["kind"], "deadlock");
  for (const auto& step : bug["trace"])
    for (const char* f : {"step", "thread", "op", "object", "location"})
      EXPECT_TRUE(step.contains(f)) << f;
}

TEST_F(Cli, CorrectProgramCompletesWithExitZero) {
  nlohmann::json j = run_json("-s dfs -n 0 -- " + kBin + "/cli_locked", 0);
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_TRUE(j["bugs"].empty());
  EXPECT_GT(j["executions"].get<int>(), 1);
}

TEST_F(Cli, LostUpdateShowsAsExitCodeWithTheSameInputEveryExecution) {
  // --races=report: the race is listed, and its accesses become scheduling points.
  Output o = sh("cd " + dir_.string() + " && echo hello | " + weft() +
                " run --races=report -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit a b");
  ASSERT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("bug: exit-code"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("status 7"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("input: hello"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("argc=3"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("1 data race (reported, not failing"), std::string::npos) << o.out;
  nlohmann::json j = run_json("-s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  EXPECT_TRUE(j["instrumented"].get<bool>());
}

TEST_F(Cli, ADataRaceIsABugByDefaultWithBothAccesses) {
  nlohmann::json j = run_json("-s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  const auto& bug = j["bugs"][0];
  EXPECT_EQ(bug["kind"], "data-race");
  EXPECT_EQ(bug["execution"], 1) << "a race shows in the first execution that has it";
  const auto& race = bug["race"];
  EXPECT_EQ(race["variable"], "counter");
  ASSERT_EQ(race["accesses"].size(), 2u);
  for (const auto& a : race["accesses"]) {
    EXPECT_EQ(a["location"]["line"], 7) << race.dump();
    EXPECT_EQ(a["location"]["function"], "inc") << race.dump();
    EXPECT_EQ(a["size"], 4);
  }
  EXPECT_NE(race["accesses"][0]["thread"], race["accesses"][1]["thread"]);
  EXPECT_EQ(j["races"].size(), 0u);
  // The text says where both are, and the replay of its schedule finds it again.
  const std::string schedule = in_dir("race.weft-schedule");
  Output o = sh(weft() + " run -s dfs -n 0 --schedule-out " + schedule + " -- " + kBin +
                "/cli_lost_update_exit < /dev/null");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.out.find("race on global 'counter'"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("earlier write"), std::string::npos) << o.out;
  nlohmann::json r = run_json_cmd(weft() + " replay " + schedule + " --json - -- " + kBin +
                                  "/cli_lost_update_exit < /dev/null 2>/dev/null", 1);
  ASSERT_EQ(r["bugs"].size(), 1u) << r.dump();
  EXPECT_EQ(r["bugs"][0]["kind"], "data-race");
}

TEST_F(Cli, ARaceFoundMakesItsAccessesSchedulingPoints) {
  // The lost update needs a preemption between the read and the write of counter++.
  // With only synchronisation as scheduling points dfs completes without seeing it...
  nlohmann::json sync = run_json(
      "--races=report --preempt-on=sync -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 0);
  EXPECT_TRUE(sync["bugs"].empty()) << sync.dump();
  EXPECT_TRUE(sync["complete"].get<bool>());
  EXPECT_EQ(sync["races"].size(), 1u) << "one pair of source lines, reported once";
  // ...racy makes the racing accesses points after the first execution, and finds it.
  nlohmann::json racy = run_json(
      "--races=report --preempt-on=racy -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  ASSERT_EQ(racy["bugs"].size(), 1u) << racy.dump();
  EXPECT_EQ(racy["bugs"][0]["kind"], "exit-code");
  EXPECT_NE(racy["bugs"][0]["schedule"].get<std::string>().find(".races=report,preempt-on=racy.+"),
            std::string::npos)
      << "the schedule names its options and extra points";
  ASSERT_EQ(racy["warnings"].size(), 1u);
  EXPECT_NE(racy["warnings"][0].get<std::string>().find("restarted 1 time"), std::string::npos);
  // Its schedule replays (the points resolve in a new process, at other addresses).
  const std::string schedule = in_dir("racy.weft-schedule");
  std::ofstream(schedule) << racy["bugs"][0]["schedule"].get<std::string>() << "\n";
  nlohmann::json r = run_json_cmd(weft() + " replay " + schedule +
                                      " --races=report --json - -- " + kBin +
                                      "/cli_lost_update_exit < /dev/null 2>/dev/null", 1);
  ASSERT_EQ(r["bugs"].size(), 1u) << r.dump();
  EXPECT_EQ(r["bugs"][0]["kind"], "exit-code");
  // --races=off sees no race, so nothing becomes a point: like sync.
  nlohmann::json off = run_json(
      "--races=off -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 0);
  EXPECT_TRUE(off["bugs"].empty()) << off.dump();
  // all: every access is a point from the start.
  nlohmann::json all = run_json(
      "--races=off --preempt-on=all -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  EXPECT_EQ(all["bugs"][0]["kind"], "exit-code");
  EXPECT_NE(all["bugs"][0]["schedule"].get<std::string>().find(".races=off,preempt-on=all.."),
            std::string::npos)
      << "no extra point";
}

TEST_F(Cli, KeepGoingCountsTheHitsOfEachDistinctBug) {
  // pb:2 runs every schedule with up to 2 preemptions: the lost update's exit code is one
  // bug, hit by several of them.
  nlohmann::json j =
      run_json("--races=report --keep-going -s pb:2 -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  const auto& bug = j["bugs"][0];
  EXPECT_EQ(bug["kind"], "exit-code");
  EXPECT_EQ(bug["found_by"], "pb:2");
  EXPECT_GT(bug["hits"].get<int>(), 1) << bug.dump();
  EXPECT_LT(bug["hits"].get<int>(), j["executions"].get<int>()) << j.dump();
  EXPECT_TRUE(j["complete"].get<bool>());
  // Without it, the first hit ends the run (a race goes on for what it leads to: not here).
  nlohmann::json first =
      run_json("--races=report -s dfs -n 0 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  EXPECT_EQ(first["bugs"][0]["hits"], 1);
  EXPECT_EQ(first["executions"], first["bugs"][0]["execution"]);
}

TEST_F(Cli, NoPreemptInMakesCodeAtomic) {
  const std::string program = kBin + "/cli_lost_update_exit < /dev/null";
  // The lost update needs a preemption inside inc(): with inc, or its source file, or its
  // whole executable treated as atomic, pb completes without it.
  for (const char* pattern : {"inc", "lost_update_exit.c", "cli_lost_*", "nosuch,inc"}) {
    nlohmann::json j = run_json(std::string("--races=report -s pb -n 0 --no-preempt-in '") + pattern +
                                    "' -- " + program, 0);
    EXPECT_TRUE(j["bugs"].empty()) << pattern << "\n" << j.dump();
    EXPECT_TRUE(j["complete"].get<bool>()) << pattern;
  }
  // A pattern that names nothing is a warning, and changes nothing.
  nlohmann::json j = run_json("--races=report -s pb -n 0 --no-preempt-in 'nosuch*' -- " + program, 1);
  ASSERT_GE(j["warnings"].size(), 1u) << j.dump();
  EXPECT_NE(j["warnings"][0].get<std::string>().find("nosuch*"), std::string::npos);
  EXPECT_EQ(j["races"].size(), 1u) << "one pair of source lines, reported once\n" << j.dump();
  EXPECT_EQ(j["bugs"].size(), 1u);
  for (const char* bad : {"", ",inc", "inc,,main"}) {
    Output o = sh(weft() + " run --no-preempt-in '" + bad + "' -- " + program);
    EXPECT_EQ(o.status, 2) << bad << "\n" << o.out;
  }
}

TEST_F(Cli, MainLeavingWithPthreadExitEndsWithTheLastThread) {
  nlohmann::json j = run_json("--hang-timeout 2 -s pb:2 -n 0 -- " + kBin + "/cli_main_exits_first", 0);
  EXPECT_TRUE(j["bugs"].empty()) << j.dump();
  EXPECT_TRUE(j["complete"].get<bool>()) << j.dump();
  EXPECT_GT(j["executions"].get<int>(), 1);
}

TEST_F(Cli, NullDereferenceIsACrash) {
  // (Its pointer is published by a relaxed flag: a data race, reported first by default.)
  nlohmann::json j = run_json("--races=report -s dfs -n 0 -- " + kBin + "/cli_null_deref", 1);
  ASSERT_EQ(j["bugs"].size(), 1u);
  EXPECT_EQ(j["bugs"][0]["kind"], "crash");
  EXPECT_NE(j["bugs"][0]["message"].get<std::string>().find("SIGSEGV"), std::string::npos);
}

TEST_F(Cli, BlockingOutsideWeftIsAHangNotAHungRun) {
  // Long enough that the reader surely reached its read on a loaded machine (0.3 s was
  // not once: the watchdog then found the baton's previous holder).
  nlohmann::json j = run_json("--hang-timeout 2 -- " + kBin + "/cli_blocked_read", 1);
  ASSERT_EQ(j["bugs"].size(), 1u);
  const auto& bug = j["bugs"][0];
  EXPECT_EQ(bug["kind"], "hang");
  EXPECT_NE(bug["message"].get<std::string>().find("blocked outside weft"), std::string::npos);
  EXPECT_NE(bug["location"]["function"].get<std::string>().find("read"), std::string::npos)
      << bug.dump();
}

TEST_F(Cli, ProgramWithoutThreadsRunsOnce) {
  Output o = sh(weft() + " run -- " + kBin + "/cli_no_threads");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("nothing to explore"), std::string::npos) << o.out;
}

TEST_F(Cli, CompilerWrappersBuildInstrumentedPrograms) {
  for (const char* cc : {"gcc", "clang"}) {
    const std::string exe = in_dir(std::string("lost_") + cc);
    Output b = sh(std::string("WEFT_CC=") + cc + " " + kBin + "/weft-cc -O1 " + kSources +
                  "/lost_update_exit.c -o " + exe);
    ASSERT_EQ(b.status, 0) << b.out;
    nlohmann::json j = run_json("-s dfs -n 0 -- " + exe + " < /dev/null", 1);
    EXPECT_TRUE(j["instrumented"].get<bool>()) << cc;
    // Separate compile and link steps work too.
    Output c = sh(std::string("WEFT_CC=") + cc + " " + kBin + "/weft-cc -c " + kSources +
                  "/lost_update_exit.c -o " + exe + ".o && " + kBin + "/weft-cc " + exe +
                  ".o -o " + exe + "2");
    ASSERT_EQ(c.status, 0) << c.out;
    run_json("-s dfs -n 0 -- " + exe + "2 < /dev/null", 1);
  }
  // Every option reaches the compilation wherever it stands, as with cc: after the
  // source, and with its value in the next argument (-I dir, -D NAME=VALUE).
  fs::create_directories(in_dir("inc"));
  std::ofstream(in_dir("inc/three.h")) << "#define THREE 3\n";
  std::ofstream(in_dir("options.c"))
      << "#include \"three.h\"\n#include <pthread.h>\nint n;\n"
         "static void* f(void* x) { n += THREE; return x; }\n"
         "int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); "
         "return n + FOUR == 7 ? 0 : 1; }\n";
  for (const char* cc : {"gcc", "clang"}) {
    const std::string exe = in_dir(std::string("options_") + cc);
    Output b = sh("cd " + dir_.string() + " && WEFT_CC=" + cc + " " + kBin +
                  "/weft-cc options.c -o " + exe + " -I inc -D FOUR=4 -O1");
    ASSERT_EQ(b.status, 0) << cc << ": " << b.out;
    EXPECT_EQ(sh(exe).status, 0) << cc;
    nlohmann::json j = run_json("-s dfs -n 0 -- " + exe, 0);
    EXPECT_TRUE(j["instrumented"].get<bool>()) << cc;
  }
}

// A build whose own `cc`, first in PATH, calls weft-cc back (say, to instrument what the
// build compiles with plain cc) gets one instrumented compilation: the wrappers do not call
// each other without end (570 deep, once). Likewise a `c++` that is weft-c++ itself.
TEST_F(Cli, ACompilerShimThatCallsTheWrapperBackIsNotCalledWithoutEnd) {
  const fs::path shims = dir_ / "shims";
  fs::create_directories(shims);
  // The shim counts how deeply it is nested, so that a regression fails here rather than
  // filling the machine with compilers.
  std::ofstream(shims / "cc") << "#!/bin/sh\n"
                                 "depth=$((${SHIM_DEPTH:-0} + 1)); export SHIM_DEPTH=$depth\n"
                                 "[ $depth -le 4 ] || { echo 'shim: nested' $depth deep >&2; exit 99; }\n"
                                 "exec " << kBin << "/weft-cc \"$@\"\n";
  fs::permissions(shims / "cc", fs::perms::owner_all);
  fs::create_symlink(kBin + "/weft-c++", shims / "c++");
  const std::string env = "env -u WEFT_CC -u WEFT_CXX PATH=" + shims.string() + ":$PATH timeout 120 ";
  const std::string exe = in_dir("lost");
  Output b = sh(env + kBin + "/weft-cc -O1 " + kSources + "/lost_update_exit.c -o " + exe);
  ASSERT_EQ(b.status, 0) << b.out;
  EXPECT_TRUE(run_json("-s dfs -n 0 -- " + exe + " < /dev/null", 1)["instrumented"].get<bool>());
  // The build calling its shim, in separate compile and link steps.
  Output c = sh("cd " + dir_.string() + " && " + env + "cc -c " + kSources +
                "/lost_update_exit.c -o lost.o && " + env + "cc lost.o -o lost2");
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_TRUE(run_json("-s dfs -n 0 -- " + in_dir("lost2") + " < /dev/null", 1)["instrumented"].get<bool>());
  Output d = sh(env + "c++ -O1 " + kSources + "/once_reuse.cpp -o " + in_dir("once"));
  ASSERT_EQ(d.status, 0) << d.out;
  EXPECT_TRUE(run_json("-s random -n 3 -- " + in_dir("once"), 0)["instrumented"].get<bool>());
}

// g++ warns on every fence that TSan does not support it; weft models fences, and its
// wrappers say so by silencing the warning (with clang too, which has no such warning).
TEST_F(Cli, FencesAreModelledAndTheWrappersDoNotWarnAboutThem) {
  for (const std::string compiler : {"g++", "clang++"}) {
    SCOPED_TRACE(compiler);
    const std::string exe = in_dir("fences-" + compiler);
    Output b = sh("WEFT_CXX=" + compiler + " " + kBin + "/weft-c++ -O1 " + kSources + "/fences.cpp -o " + exe);
    ASSERT_EQ(b.status, 0) << b.out;
    EXPECT_EQ(b.out, "") << "no warning";
    Output fenced = sh("cd " + dir_.string() + " && " + weft() + " run --jobs 1 -s dfs -- " + exe + " fenced");
    EXPECT_EQ(fenced.status, 0) << fenced.out;
    EXPECT_TRUE(fenced.has(", complete;")) << fenced.out;
    Output unfenced =
        sh("cd " + dir_.string() + " && " + weft() + " run --jobs 1 -s dfs -- " + exe + " unfenced");
    EXPECT_EQ(unfenced.status, 1) << unfenced.out;
    EXPECT_TRUE(unfenced.has("bug: data-race:")) << unfenced.out;
  }
}

TEST_F(Cli, BadInputIsAOneLineErrorWithExitTwo) {
  const std::string script = in_dir("script.sh");
  std::ofstream(script) << "#!/bin/sh\necho hi\n";
  chmod(script.c_str(), 0755);
  const std::string plain = in_dir("plain");
  std::ofstream(plain) << "data";
  const std::string schedule = in_dir("bad.schedule");
  std::ofstream(schedule) << "weft1.truncated";
  const std::string other = in_dir("other.schedule");
  sh("cd " + dir_.string() + " && " + weft() + " run -s dfs -n 0 --schedule-out " + other +
     " -- " + kBin + "/cli_deadlock");
  for (const std::string& args :
       {std::string("run -- /no/such/program"), "run -- " + plain, "run -- " + script,
        "run -s bogus -- " + kBin + "/cli_locked", "run --executions x -- " + kBin + "/cli_locked",
        "run --steps 0 -- " + kBin + "/cli_locked", std::string("frobnicate"), std::string("run"),
        "replay " + schedule + " -- " + kBin + "/cli_locked",
        "replay " + other + " -- " + kBin + "/cli_locked",
        "replay /no/such/schedule -- " + kBin + "/cli_locked",
        "run --races=maybe -- " + kBin + "/cli_locked",
        "run --preempt-on=some -- " + kBin + "/cli_locked"}) {
    Output o = sh(weft() + " " + args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find("weft"), std::string::npos) << args << "\n" << o.out;
  }
}

TEST_F(Cli, RaceDetectionOnAProgramBuiltWithoutTheWrappersSaysHowToGetIt) {
  Output o = sh(weft() + " run --races=fail -- " + kBin + "/cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("weft-cc"), std::string::npos) << o.out;
  // Asked for nothing: the default says nothing, and the run goes on.
  EXPECT_EQ(sh(weft() + " run -q -- " + kBin + "/cli_locked").status, 0);
  // Bad values name what is accepted.
  Output bad = sh(weft() + " run --races=maybe -- " + kBin + "/cli_locked");
  EXPECT_NE(bad.out.find("off, report, fail"), std::string::npos) << bad.out;
  bad = sh(weft() + " run --preempt-on=some -- " + kBin + "/cli_locked");
  EXPECT_NE(bad.out.find("sync, racy, all"), std::string::npos) << bad.out;
}

// Whether a run ended in an error is the run's error, not a word in its JSON text: a
// program given the argument "error" once made every run exit 2, its report printed
// despite -q.
TEST_F(Cli, AnArgumentNamedErrorIsNoError) {
  for (const char* jobs : {"1", "2"}) {
    const Output o =
        sh(weft() + " run -q --jobs " + jobs + " -n 20 -- " + kBin + "/cli_locked error \\\"error\\\"");
    EXPECT_EQ(o.status, 0) << jobs << "\n" << o.out;
    EXPECT_EQ(o.out, "") << jobs;
  }
  // A real error still is one.
  const Output o = sh(weft() + " run -q --races=fail -- " + kBin + "/cli_locked error");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("weft-cc"), std::string::npos) << o.out;
}

TEST_F(Cli, ATimeoutDependentBugIsFoundOnlyWhenTimeoutsAreExplored) {
  const std::string program = kBin + "/cli_timeout_gives_up";
  // By default a timed wait times out only when nothing else can run: never, here.
  nlohmann::json plain = run_json("-s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(plain["bugs"].empty()) << plain.dump();
  EXPECT_TRUE(plain["complete"].get<bool>());
  nlohmann::json timeouts = run_json("--explore-timeouts -s dfs -n 0 -- " + program, 1);
  ASSERT_EQ(timeouts["bugs"].size(), 1u) << timeouts.dump();
  EXPECT_EQ(timeouts["bugs"][0]["kind"], "exit-code");
  Output o = sh(weft() + " run --explore-timeouts -s dfs -n 0 --schedule-out " +
                in_dir("t.weft-schedule") + " -- " + program);
  EXPECT_NE(o.out.find("(timed out)"), std::string::npos) << o.out;
  // The schedule records --explore-timeouts: the replay needs it not, and takes it given.
  EXPECT_NE(o.out.find("replay it with: weft replay " + in_dir("t.weft-schedule") + " -- "),
            std::string::npos)
      << "the replay hint\n" << o.out;
  for (const std::string given : {"", "--explore-timeouts "}) {
    nlohmann::json again = run_json_cmd(weft() + " replay " + given + "--json - " +
                                            in_dir("t.weft-schedule") + " -- " + program, 1);
    EXPECT_EQ(again["bugs"][0]["kind"], "exit-code") << again.dump();
  }
}

TEST_F(Cli, ASpuriousWakeupIsExploredOnlyWhenAskedFor) {
  const std::string program = kBin + "/cli_spurious_wakeup";
  nlohmann::json plain = run_json("-s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(plain["bugs"].empty()) << plain.dump();
  EXPECT_TRUE(plain["complete"].get<bool>());
  Output o = sh(weft() + " run --spurious-wakeups -s dfs -n 0 --schedule-out " +
                in_dir("s.weft-schedule") + " -- " + program);
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("bug: exit-code"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(spurious wakeup)"), std::string::npos) << o.out;
  // A lost wakeup stays the deadlock it is: no spurious wakeup is offered when nothing
  // else can run.
  nlohmann::json dl = run_json("--spurious-wakeups -s dfs -n 0 -- " + kBin + "/cli_lost_wakeup", 1);
  EXPECT_EQ(dl["bugs"][0]["kind"], "deadlock") << dl.dump();
}

TEST_F(Cli, AReadFromAPipeWaitsForTheThreadThatWritesIt) {
  const std::string program = kBin + "/cli_pipe_threads";
  // Every schedule ends: the reader is not run into the kernel before the byte is there.
  nlohmann::json ok = run_json("--hang-timeout 2 -s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(ok["bugs"].empty()) << ok.dump();
  EXPECT_TRUE(ok["complete"].get<bool>());
  EXPECT_GT(ok["executions"].get<int>(), 1);
  nlohmann::json bug = run_json("--hang-timeout 2 -s dfs -n 0 -- " + program + " bug", 1);
  ASSERT_EQ(bug["bugs"].size(), 1u) << bug.dump();
  EXPECT_EQ(bug["bugs"][0]["kind"], "exit-code");
  bool waited = false;
  for (const auto& step : bug["bugs"][0]["trace"]) waited |= step["op"] == "fd-wait";
  EXPECT_TRUE(waited) << bug.dump();
}

// C11 threads are glibc's internal pthread calls: weft maps each onto its own, so the
// threads are controlled and the steps are placed in the program's lines.
TEST_F(Cli, C11ThreadsAreUnderControl) {
  const std::string program = kBin + "/cli_c11_threads";
  nlohmann::json ok = run_json("-s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(ok["complete"].get<bool>()) << ok;
  EXPECT_GT(ok["executions"].get<int>(), 10) << ok;
  nlohmann::json bug = run_json("-s dfs -n 0 -- " + program + " unlocked", 1);
  ASSERT_EQ(bug["bugs"].size(), 1u) << bug;
  EXPECT_EQ(bug["bugs"][0]["kind"], "data-race") << bug;
  bool create_located = false;
  for (const auto& step : bug["bugs"][0]["trace"])
    if (step["op"] == "thread-create")
      create_located = step["location"].get<std::string>().find("c11_threads.c:") != std::string::npos;
  EXPECT_TRUE(create_located) << "thrd_create's step at the program's line\n" << bug;
  nlohmann::json lost = run_json("-s dfs -n 0 --races off --preempt-on all -- " + program + " unlocked", 1);
  ASSERT_EQ(lost["bugs"].size(), 1u) << lost;
  EXPECT_EQ(lost["bugs"][0]["kind"], "exit-code") << lost;
}

// Two threads about to create at once: whichever goes first makes the next id, and each
// step names the thread it really made (it once named the id it saw when it got there,
// and the race detector then took two threads for one and reported a locked counter).
TEST_F(Cli, ConcurrentCreatesEachNameTheirOwnChild) {
  const std::string program = kBin + "/cli_nested_create";
  nlohmann::json ok = run_json("-s pos -n 3000 --seed 0 -- " + program, 0);
  EXPECT_TRUE(ok["bugs"].empty()) << ok;
  nlohmann::json race = run_json("-s pos -n 3000 --seed 0 -- " + program + " unlocked", 1);
  ASSERT_EQ(race["bugs"].size(), 1u) << race;
  EXPECT_EQ(race["bugs"][0]["kind"], "data-race");
  std::set<int> children;
  int creates = 0;
  for (const auto& step : race["bugs"][0]["trace"])
    if (step["op"] == "thread-create") {
      ++creates;
      children.insert(step["target"].get<int>());
    }
  EXPECT_EQ(static_cast<int>(children.size()), creates) << race;
}

// Atomic increments are work even though fairness takes a loop of them for a spin: an
// execution of them past --steps is cut, not a livelock; with a larger bound it ends.
TEST_F(Cli, ALongExecutionOfAtomicIncrementsIsCut) {
  const std::string program = kBin + "/cli_long_counter";
  nlohmann::json j = run_json("-s random -n 1 -- " + program, 0);
  EXPECT_TRUE(j["bugs"].empty()) << j;
  EXPECT_EQ(j["cut_executions"], 1) << j;
  nlohmann::json ok = run_json("-s random -n 2 --steps 300000 -- " + program, 0);
  EXPECT_TRUE(ok["bugs"].empty()) << ok;
  EXPECT_EQ(ok["cut_executions"], 0) << ok;
}

// Past --steps with no thread spinning or yielding, an execution is long, not livelocked:
// cut at the bound, counted and warned about, never reported (a priority schedule that
// runs one locking thread alone for 100,000 steps was a false livelock). A thread that
// yields forever in such a program is still one, and one that polls memory while the
// others starve is a good-samaritan violation.
TEST_F(Cli, ALongExecutionThatKeepsWorkingIsCutNotReported) {
  const std::string program = kBin + "/cli_long_locked";
  for (const std::string strategy : {"random", "pct:3", "dfs"}) {
    nlohmann::json j = run_json("-s " + strategy + " -n 3 --steps 20000 -- " + program, 0);
    EXPECT_TRUE(j["bugs"].empty()) << strategy << ": " << j;
    EXPECT_EQ(j["cut_executions"], 3) << strategy;
    EXPECT_EQ(j["max_steps"], 20000) << strategy;
  }
  const Output text = sh("cd " + dir_.string() + " && " + weft() +
                         " run -s random -n 2 --steps 20000 -- " + program);
  EXPECT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("warning: long executions: 2 executions reached the step bound "
                          "(--steps 20000)"),
            std::string::npos)
      << text.out;
  nlohmann::json whole = run_json("-s random -n 2 --steps 40000 -- " + program, 0);
  EXPECT_EQ(whole["cut_executions"], 0) << whole;
  EXPECT_EQ(whole["max_steps"], 40000) << whole;
  nlohmann::json spin =
      run_json("-s random -n 3 --steps 20000 --no-minimize -- " + program + " spin", 1);
  ASSERT_EQ(spin["bugs"].size(), 1u) << spin;
  EXPECT_EQ(spin["bugs"][0]["kind"], "livelock") << spin;
  EXPECT_EQ(spin["cut_executions"], 0) << spin;
  for (const std::string spin_kind : {"tas", "cas"}) {
    nlohmann::json rmw = run_json("-s random -n 3 --steps 20000 --no-minimize -- " + program +
                                      " " + spin_kind, 1);
    ASSERT_EQ(rmw["bugs"].size(), 1u) << spin_kind << ": " << rmw;
    EXPECT_EQ(rmw["bugs"][0]["kind"], "livelock") << spin_kind << ": " << rmw;
  }
  nlohmann::json poll =
      run_json("-s dfs -n 3 --steps 20000 --no-minimize -- " + program + " poll", 1);
  ASSERT_EQ(poll["bugs"].size(), 1u) << poll;
  EXPECT_NE(poll["bugs"][0]["message"].get<std::string>().find("good-samaritan violation"),
            std::string::npos)
      << poll;
}

// getpid() and gettid() are the same in every execution (CHESS 3.1), and so is the
// randomness a program draws from the system (getrandom, getentropy, /dev/urandom,
// std::random_device): a program that branches on them is still a function of its
// schedule. Signals sent to the virtual ids arrive.
// A flag polled with plain (here volatile) reads passes no synchronisation: the polling
// loop must still become a scheduling point, so that the thread it waits for runs, rather
// than the execution ending as a hang after the watchdog's 10 s.
TEST_F(Cli, APolledPlainFlagLetsTheThreadItWaitsForRun) {
  const std::string program = kBin + "/cli_polled_flag";
  nlohmann::json raced = run_json("-s dfs -n 0 -- " + program, 1);
  ASSERT_EQ(raced["bugs"].size(), 1u) << raced;
  EXPECT_EQ(raced["bugs"][0]["kind"], "data-race") << raced;
  EXPECT_EQ(raced["bugs"][0]["race"]["variable"], "ready") << raced;
  for (const std::string strategy : {"dfs", "dpor", "pb:2"}) {
    nlohmann::json ok = run_json("--races off -s " + strategy + " -n 0 -- " + program, 0);
    EXPECT_TRUE(ok["bugs"].empty()) << strategy << ": " << ok;
    EXPECT_TRUE(ok["complete"]) << strategy << ": " << ok;
    EXPECT_EQ(ok["cut_executions"], 0) << strategy;
  }
  // A poll that also writes is no read-only spin: it yields after a million accesses.
  nlohmann::json counting = run_json("--races off -s dfs -n 0 -- " + program + " counting", 0);
  EXPECT_TRUE(counting["bugs"].empty()) << counting;
  EXPECT_TRUE(counting["complete"]) << counting;
  nlohmann::json sampled = run_json("--races off -s random -n 50 -- " + program, 0);
  EXPECT_TRUE(sampled["bugs"].empty()) << sampled;
  EXPECT_EQ(sampled["executions"], 50) << sampled;
  // ...and the bug a poll can hide stays reachable.
  nlohmann::json early = run_json("--races report -s dfs -n 0 -- " + program + " early", 1);
  ASSERT_EQ(early["bugs"].size(), 1u) << early;
  EXPECT_EQ(early["bugs"][0]["kind"], "assertion") << early;
}

TEST_F(Cli, IdsAndSystemRandomnessAreTheSameInEveryExecution) {
  for (const std::string name : {"cli_ids", "cli_entropy"}) {
    const std::string program = kBin + "/" + name;
    nlohmann::json j = run_json("-s dfs -n 0 -- " + program, 0);
    EXPECT_TRUE(j["complete"].get<bool>()) << name << ": " << j;
    EXPECT_EQ(j["coverage"]["nondeterminism"], "") << name << ": " << j;
    // The same values in two runs, and in the replay of the first.
    std::string shown[2];
    for (std::string& out : shown) {
      const Output o = sh("cd " + dir_.string() + " && " + weft() + " run -s random -n 5 -- " +
                          program + " print");
      ASSERT_EQ(o.status, 1) << o.out;
      const std::size_t at = o.out.find("output of the failing execution:\n");
      ASSERT_NE(at, std::string::npos) << o.out;
      const std::size_t line = o.out.find('\n', at) + 1;
      out = o.out.substr(line, o.out.find('\n', line) - line);
    }
    EXPECT_EQ(shown[0], shown[1]) << name;
    const Output replay = sh("cd " + dir_.string() + " && " + weft() + " replay " + name +
                             ".weft-schedule -- " + program + " print");
    EXPECT_EQ(replay.status, 1) << replay.out;
    EXPECT_NE(replay.out.find(shown[0]), std::string::npos) << shown[0] << "\n" << replay.out;
  }
}

// A holder's failed try (of a mutex, a semaphore, an rwlock) and errorcheck relock read the
// lock and change nothing: dpor reverses the locks around them, and finds the order the
// program fails in (it explored one order only).
TEST_F(Cli, DporReversesLocksAroundTheHoldersFailedTries) {
  for (const std::string kind : {"mutex", "sem", "rw"}) {
    nlohmann::json j = run_json("-s dpor -n 0 -- " + kBin + "/cli_held_trylock " + kind, 1);
    ASSERT_EQ(j["bugs"].size(), 1u) << kind << ": " << j;
    EXPECT_EQ(j["bugs"][0]["kind"], "exit-code") << kind << ": " << j;
  }
}

// Freed memory holds no once flag: a new object there runs its call_once again.
TEST_F(Cli, OnceFlagsAndMutexesInReusedMemoryAreNewOnes) {
  nlohmann::json j = run_json("-s pos -n 300 --seed 0 -- " + kBin + "/cli_once_reuse", 0);
  EXPECT_TRUE(j["bugs"].empty()) << j;
  j = run_json("-s dfs -n 300 -- " + kBin + "/cli_once_reuse", 0);
  EXPECT_TRUE(j["bugs"].empty()) << j;
}

// Correct programs that use most of pthreads, and of C++20's synchronisation library:
// no strategy may report them (a trylock-and-yield loop was a false livelock; a
// std::recursive_mutex where a std::mutex had been, a false deadlock).
TEST_F(Cli, CorrectProgramsUsingManyPrimitivesAreNeverReported) {
  for (const std::string program : {"cli_pthread_tour", "cli_cpp20_tour"})
    for (const std::string strategy : {"dfs", "dpor", "pct:3", "pos"}) {
      nlohmann::json j = run_json("-s " + strategy + " -n 60 --seed 1 -- " + kBin + "/" + program, 0);
      EXPECT_TRUE(j["bugs"].empty()) << program << " " << strategy << ": " << j.dump();
      EXPECT_EQ(j["executions"], 60) << program << " " << strategy;
    }
}

TEST_F(Cli, PollSelectAndEpollWaitForTheThreadThatWrites) {
  nlohmann::json j = run_json("-s dfs -n 0 --hang-timeout 5 -- " + kBin + "/cli_poll_threads", 0);
  EXPECT_TRUE(j["complete"].get<bool>()) << j;
  EXPECT_TRUE(j["bugs"].empty()) << j;
  EXPECT_GT(j["executions"].get<int>(), 1) << "the writer interleaves with the waits";
}

TEST_F(Cli, ASignalIsHandledByTheThreadItWasSentToWhenThatThreadRuns) {
  nlohmann::json j = run_json("--hang-timeout 2 -s dfs -n 0 -- " + kBin + "/cli_signals_thread", 0);
  EXPECT_TRUE(j["bugs"].empty()) << j.dump();
  EXPECT_TRUE(j["complete"].get<bool>()) << j.dump();
}

TEST_F(Cli, StateCachingSkipsExploredStatesUnlessTurnedOff) {
  const std::string program = kBin + "/cli_locked";
  nlohmann::json cached = run_json("-s dfs -n 0 -- " + program, 0);
  nlohmann::json every = run_json("--no-state-cache -s dfs -n 0 -- " + program, 0);
  EXPECT_TRUE(cached["complete"].get<bool>() && every["complete"].get<bool>());
  EXPECT_LT(cached["executions"].get<int>(), every["executions"].get<int>());
  EXPECT_GT(cached["coverage"]["classes"].get<int>(), 0);
  EXPECT_EQ(every["coverage"]["classes"], 0);
  EXPECT_NE(cached["coverage"]["summary"].get<std::string>().find("pruned by state caching"),
            std::string::npos);
}

// weft keeps its search in the program's process: its blocks must not move the program's
// heap from one execution to the next, or a state-cached search would count one state as
// many (and two runs of one seed would differ with the address-space layout).
TEST_F(Cli, TheProgramsHeapIsTheSameInEveryExecution) {
  const std::string program = kBin + "/cli_heap_layout";
  const std::string lines = in_dir("layout.txt");
  for (const std::string races : {"report", "off"}) {
    fs::remove(lines);
    nlohmann::json j = run_json("--races=" + races + " -s dfs -n 0 -- " + program + " " + lines, 0);
    EXPECT_TRUE(j["complete"].get<bool>()) << j.dump();
    // 3 threads, 2 critical sections each: 6!/(2!)^3 orders of the lock.
    EXPECT_EQ(j["coverage"]["classes"], 90) << j.dump();
    std::ifstream in(lines);
    std::set<std::string> distinct;
    int n = 0;
    for (std::string line; std::getline(in, line); ++n) distinct.insert(line);
    EXPECT_EQ(n, j["executions"].get<int>());
    EXPECT_EQ(distinct.size(), 1u) << races << ": " << distinct.size() << " layouts in " << n
                                   << " executions, e.g. " << *distinct.begin();
  }
  fs::remove(lines);
  nlohmann::json dpor = run_json("-s dpor -n 0 -- " + program + " " + lines, 0);
  EXPECT_EQ(dpor["executions"], 90) << dpor.dump();
}

// weft's work for a new thread runs on the thread's kernel thread, beside the program's:
// a block it took from the program's heap there moved the program's next blocks by
// timing, so that one schedule did not always give one heap, and state caching (objects
// are named by address) pruned differently from run to run.
TEST_F(Cli, WeftTakesNothingFromTheProgramsHeapForAThread) {
  const std::string program = kBin + "/cli_heap_untouched";
  EXPECT_EQ(sh(program).status, 0) << "the program's own expectation, without weft";
  for (const std::string strategy : {"dfs", "random"}) {
    nlohmann::json j = run_json("-s " + strategy + " -n 20 -- " + program, 0);
    EXPECT_TRUE(j["bugs"].empty()) << strategy << ": " << j;
  }
}

// libdw and its compression libraries are loaded when a report needs symbols, not in the
// program: each mapping would cost every execution's fork and exit (make bench).
TEST_F(Cli, TheSymbolizersLibrariesAreNotMappedIntoThePrograms) {
  nlohmann::json j = run_json("-s random -n 5 -- " + kBin + "/cli_maps_probe", 0);
  EXPECT_TRUE(j["bugs"].empty()) << j.dump();
  // And reports still name their source lines.
  Output o = sh(weft() + " run -s dfs -n 0 -- " + kBin + "/cli_deadlock");
  EXPECT_NE(o.out.find("deadlock.c:"), std::string::npos) << o.out;
}

TEST_F(Cli, PctvbNeedsAnInstrumentedProgramAndFindsTheLostUpdate) {
  Output o = sh(weft() + " run -s pctvb:2,1 -- " + kBin + "/cli_locked");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("weft-cc"), std::string::npos) << o.out;
  EXPECT_EQ(sh(weft() + " run -s pctvb:3 -- " + kBin + "/cli_locked").status, 2);
  nlohmann::json j = run_json(
      "--races=report -s pctvb:2,1 -n 500 -- " + kBin + "/cli_lost_update_exit < /dev/null", 1);
  ASSERT_EQ(j["bugs"].size(), 1u) << j.dump();
  EXPECT_EQ(j["bugs"][0]["kind"], "exit-code");
}

TEST_F(Cli, DporAndBestFirstStateTheirCoverage) {
  const std::string locked = kBin + "/cli_locked";
  nlohmann::json d = run_json("-s dpor -n 0 -- " + locked, 0);
  EXPECT_TRUE(d["complete"].get<bool>()) << d.dump();
  EXPECT_EQ(d["coverage"]["kind"], "full");
  EXPECT_TRUE(d["coverage"]["complete"].get<bool>());
  EXPECT_GT(d["coverage"]["classes"].get<int>(), 0);
  EXPECT_EQ(d["coverage"]["nodes_created"].get<int>(), d["executions"].get<int>());
  // The same classes in another order: bf without a bound covers DPOR's space.
  nlohmann::json b = run_json("-s bf:rand,pb --seed 3 -n 0 -- " + locked, 0);
  EXPECT_TRUE(b["coverage"]["complete"].get<bool>()) << b.dump();
  EXPECT_EQ(b["coverage"]["classes"], d["coverage"]["classes"]);
  // With a bound: the preemption-bounded space, as pb:1 explores it.
  nlohmann::json bounded = run_json("-s bf:mdpor,pb --bound pb:1 -n 0 -- " + locked, 0);
  nlohmann::json pb = run_json("--no-state-cache -s pb:1 -n 0 -- " + locked, 0);
  EXPECT_EQ(bounded["coverage"]["kind"], "preemption-bound");
  EXPECT_EQ(bounded["coverage"]["bound"], 1);
  EXPECT_TRUE(bounded["coverage"]["complete"].get<bool>());
  EXPECT_EQ(bounded["executions"], pb["executions"]);
  // A bug, with the search's memory printed.
  Output o = sh(weft() + " run -s bf:mdpor,pb --stats -- " + kBin + "/cli_deadlock");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("execution tree:"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("peak"), std::string::npos) << o.out;
}

TEST_F(Cli, BadPrioritiesAndBoundsAreRefusedBeforeTheSearch) {
  const std::string locked = kBin + "/cli_locked";
  const std::map<std::string, std::string> cases = {
      {"-s bf:fast", "unknown priority \"fast\""},
      {"-s bf:method=", "method= needs at least one name"},
      {"-s bf:var=no_such_variable_anywhere", "names no global or static variable"},
      {"-s bf:method=no_such_function_anywhere", "names no function"},
      {"-s dfs --bound pb:x", "expected pb:<c>"},
      {"-s dfs --bound db:2", "expected pb:<c>"},
      {"-s random --bound pb:2", "--bound applies to dfs and bf only"},
      {"-s dpor --bound pb:2", "--bound applies to dfs and bf only"},
      {"-s dpor:1", "dpor takes no argument"}};
  for (const auto& [args, why] : cases) {
    Output o = sh(weft() + " run " + args + " -- " + locked);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(why), std::string::npos) << args << "\n" << o.out;
  }
  // A variable that exists: accepted (the mutex is a static of the program).
  EXPECT_EQ(sh(weft() + " run -q -s bf:var=m,pb -n 0 -- " + locked).status, 0);
}

TEST_F(Cli, SampledBugsAreMinimisedAndMinimizeTakesASchedule) {
  const std::string deadlock = kBin + "/cli_deadlock";
  // Random's first find has two preemptions; one suffices for this lock-order deadlock.
  nlohmann::json kept = run_json("-s random --seed 2 --no-minimize -- " + deadlock, 1);
  ASSERT_EQ(kept["bugs"].size(), 1u) << kept.dump();
  EXPECT_EQ(kept["bugs"][0]["preemptions"], 2);
  EXPECT_FALSE(kept["bugs"][0].contains("minimized"));
  nlohmann::json min = run_json("-s random --seed 2 -- " + deadlock, 1);
  ASSERT_EQ(min["bugs"].size(), 1u) << min.dump();
  const nlohmann::json& bug = min["bugs"][0];
  EXPECT_EQ(bug["kind"], "deadlock");
  EXPECT_EQ(bug["preemptions"], 1);
  EXPECT_TRUE(bug["minimized"]["done"].get<bool>());
  EXPECT_EQ(bug["minimized"]["found_preemptions"], 2);
  // The minimised schedule replays the same bug.
  const std::string schedule = in_dir("min.weft-schedule");
  sh("cd " + dir_.string() + " && " + weft() + " run -q -s random --seed 2 --schedule-out " +
     schedule + " -- " + deadlock);
  nlohmann::json again = run_json_cmd(weft() + " replay --json - " + schedule + " -- " + deadlock, 1);
  EXPECT_EQ(again["bugs"][0]["preemptions"], 1);
  EXPECT_EQ(again["bugs"][0]["kind"], "deadlock");
  // weft minimize on a schedule kept as found.
  const std::string first = in_dir("first.weft-schedule");
  sh("cd " + dir_.string() + " && " + weft() + " run -q -s random --seed 2 --no-minimize " +
     "--schedule-out " + first + " -- " + deadlock);
  Output o = sh(weft() + " minimize " + first + " --schedule-out " + in_dir("m.weft-schedule") +
                " -- " + deadlock);
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("minimised: found with 2 preemptions"), std::string::npos) << o.out;
  // A schedule that shows no bug: said so, exit 2.
  nlohmann::json races = run_json("-s random --seed 1 --races=report -n 1 -- " + kBin +
                                      "/cli_lost_update_exit < /dev/null", 0);
  ASSERT_FALSE(races["races"].empty()) << races.dump();
  const std::string race = in_dir("race.weft-schedule");
  std::ofstream(race) << races["races"][0]["schedule"].get<std::string>() << "\n";
  o = sh(weft() + " minimize " + race + " --races=report -- " + kBin +
         "/cli_lost_update_exit < /dev/null");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("the schedule shows no bug in this program"), std::string::npos) << o.out;
}

TEST_F(Cli, AProgressLineIsShownOnATerminalAndClearedAtTheEnd) {
  // script(1) gives weft a terminal; what it wrote is kept in a file.
  const std::string typescript = in_dir("typescript");
  const std::string program = kBin + "/cli_locked";
  auto on_terminal = [&](const std::string& args) {
    sh("cd " + dir_.string() + " && script -qec \"" + weft() + " run " + args + " -- " +
       program + "\" " + typescript + " > /dev/null");
    std::ifstream in(typescript);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  // Slow enough to be shown: a second of executions.
  const std::string shown = on_terminal("-s random -n 0 --time 1.2");
  const std::size_t line = shown.find("\r\033[Kweft: ");
  ASSERT_NE(line, std::string::npos) << shown;
  EXPECT_NE(shown.find("executions, ", line), std::string::npos) << shown;
  EXPECT_NE(shown.find("/s, 0 bugs, ", line), std::string::npos) << shown;
  // Cleared before the result is printed.
  const std::size_t result = shown.find("no bug found");
  ASSERT_NE(result, std::string::npos) << shown;
  EXPECT_EQ(shown.rfind("\r\033[K", result), shown.rfind("\r\033[K")) << shown;
  EXPECT_EQ(shown.substr(shown.rfind("\r\033[K"), 4 + 6), "\r\033[Kno bug") << shown;
  // Off with --quiet, and when stderr is not a terminal.
  EXPECT_EQ(on_terminal("-q -s random -n 0 --time 1.2").find("weft: "), std::string::npos);
  Output piped = sh(weft() + " run -s random -n 0 --time 1.2 -- " + program);
  EXPECT_EQ(piped.out.find("\033[K"), std::string::npos) << piped.out;
}

// Counts the occurrences of `needle` in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

TEST_F(Cli, HtmlPageShowsLanesStepsBugAndArrowsInAHeadlessChromium) {
  const std::string page = in_dir("deadlock.html");
  const std::string deadlock = kBin + "/cli_deadlock";
  nlohmann::json r = run_json("-s dpor --html " + page + " -- " + deadlock, 1);
  ASSERT_EQ(r["bugs"].size(), 1u) << r.dump();
  const std::size_t steps = r["bugs"][0]["trace"].size();
  std::ifstream in(page);
  const std::string html(std::istreambuf_iterator<char>(in), {});
  ASSERT_FALSE(html.empty());
  // Self-contained: nothing fetched from anywhere.
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "a link out";
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  // The page as a real browser builds it, scripts run (Debian's chromium, headless).
  const weft::test::HeadlessChromium::Result dom = weft::test::HeadlessChromium::dump_dom(page);
  ASSERT_TRUE(dom.ok) << dom.error;
  EXPECT_NE(dom.out.find("data-ready=\"true\""), std::string::npos) << "the script did not run";
  EXPECT_EQ(occurrences(dom.out, "class=\"lane-head\""), 3u) << "a lane per thread";
  EXPECT_EQ(occurrences(dom.out, "data-step=\""), steps) << "a box per step";
  EXPECT_EQ(occurrences(dom.out, "id=\"bug-marker\""), 1u);
  EXPECT_NE(dom.out.find("class=\"step preemption"), std::string::npos);
  EXPECT_GE(occurrences(dom.out, "<line class=\"hb\""), 2u) << "happens-before arrows drawn";
  EXPECT_NE(dom.out.find("deadlock.c:13"), std::string::npos) << "the source location";
  // A screenshot, kept as the test's artifact.
  fs::create_directories(WEFT_ARTIFACT_DIR);
  const std::string png = std::string(WEFT_ARTIFACT_DIR) + "/html_report.png";
  fs::remove(png);
  const weft::test::HeadlessChromium::Result shot =
      weft::test::HeadlessChromium::screenshot(page, png, 1200, 900);
  ASSERT_TRUE(shot.ok) << shot.error;
  std::ifstream image(png, std::ios::binary);
  char magic[8] = {};
  image.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG") << "no screenshot at " << png;
  EXPECT_GT(fs::file_size(png), 10000u);
}

TEST_F(Cli, ReportFilesAreCheckedBeforeTheSearchAndNotWrittenWithoutABug) {
  const std::string locked = kBin + "/cli_locked";
  for (const std::string option : {"--html", "--trace-out", "--json", "--schedule-out"}) {
    Output o = sh(weft() + " run " + option + " /no/such/dir/out -- " + locked);
    EXPECT_EQ(o.status, 2) << option << "\n" << o.out;
    EXPECT_NE(o.out.find(option + " /no/such/dir/out: directory /no/such/dir does not exist"),
              std::string::npos) << o.out;
  }
  Output o = sh(weft() + " run --html " + dir_.string() + " -- " + locked);
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("is a directory"), std::string::npos) << o.out;
  // No bug: nothing to picture, and no file pretends otherwise.
  o = sh(weft() + " run -s dpor --html " + in_dir("x.html") + " --trace-out " + in_dir("x.json") +
         " -- " + locked);
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("no bug found, so no interleaving to write"), std::string::npos) << o.out;
  EXPECT_FALSE(fs::exists(in_dir("x.html")));
  EXPECT_FALSE(fs::exists(in_dir("x.json")));
}

TEST_F(Cli, TraceOutWritesTheInterleavingAsTraceEvents) {
  const std::string trace = in_dir("trace.json");
  nlohmann::json r = run_json("-s dfs -n 0 --trace-out " + trace + " -- " + kBin + "/cli_deadlock", 1);
  std::ifstream in(trace);
  const auto t = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(t.is_discarded()) << "not JSON: " << trace;
  std::size_t slices = 0, names = 0, bug_markers = 0;
  std::map<std::uint64_t, int> flows;  // id -> +1 start, +1 finish: 2 each
  for (const auto& e : t["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "X") ++slices;
    if (ph == "M" && e["name"] == "thread_name") ++names;
    if (ph == "i" && e["name"].get<std::string>().rfind("deadlock", 0) == 0) ++bug_markers;
    if (ph == "s" || ph == "f") ++flows[e["id"].get<std::uint64_t>()];
  }
  EXPECT_EQ(slices, r["bugs"][0]["steps"].get<std::size_t>());
  EXPECT_EQ(names, 3u);  // T0, T1, T2
  EXPECT_EQ(bug_markers, 1u);
  EXPECT_FALSE(flows.empty());  // create -> start arrows at least
  for (const auto& [id, n] : flows) EXPECT_EQ(n, 2) << "flow " << id;
  // No bug, no trace.
  const std::string none = in_dir("none.json");
  run_json("-s dfs -n 0 --trace-out " + none + " -- " + kBin + "/cli_locked", 0);
  EXPECT_FALSE(fs::exists(none));
}

TEST_F(Cli, ChildProcessesAreOutsideWhatWeftControls) {
  Output o = sh(weft() + " run -- " + kBin + "/cli_forks");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("fork()"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("outside what weft controls"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("forks.c:"), std::string::npos) << "where it happened\n" << o.out;
  // The same through syscall(): never a child weft does not see.
  for (const std::string how : {"raw-fork", "raw-clone"}) {
    o = sh(weft() + " run -- " + kBin + "/cli_forks " + how);
    EXPECT_EQ(o.status, 2) << how << "\n" << o.out;
    EXPECT_NE(o.out.find("syscall(SYS_" + std::string(how == "raw-fork" ? "fork" : "clone") + ")"),
              std::string::npos) << o.out;
    EXPECT_NE(o.out.find("outside what weft controls"), std::string::npos) << o.out;
  }
  // A futex operation weft does not model is refused, not run behind its back.
  o = sh(weft() + " run -- " + kBin + "/cli_forks requeue");
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_NE(o.out.find("syscall(SYS_futex, FUTEX_CMP_REQUEUE)"), std::string::npos) << o.out;
}

TEST_F(Cli, StrategiesAreListed) {
  Output o = sh(weft() + " strategies");
  EXPECT_EQ(o.status, 0);
  for (const char* s : {"random", "pct", "dfs"}) EXPECT_NE(o.out.find(s), std::string::npos);
}

}  // namespace
