// Every report a real bug (issue #25): what a program does by design is not reported, and
// what is reported says what the program did.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

class Reports : public weft::test::TempDirTest {
 protected:
  // `weft run --json - ARGS` in the test's directory: the result, its status checked.
  nlohmann::json run(const std::string& args, int expect_status) {
    const std::string command = kBin + "/weft run --json - " + args;
    Output o = sh("cd " + dir_.string() + " && " + command, "2>/dev/null");
    EXPECT_EQ(o.status, expect_status) << command << "\n" << o.out;
    auto j = nlohmann::json::parse(o.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << command << "\n" << o.out;
    return j;
  }
  Output weft(const std::string& args) { return sh("cd " + dir_.string() + " && " + kBin + "/weft " + args); }
};

std::set<std::string> kinds(const nlohmann::json& result) {
  std::set<std::string> out;
  for (const auto& b : result.value("bugs", nlohmann::json::array())) out.insert(b.value("kind", ""));
  return out;
}

// A program that returns 6 in every execution: without a declaration the first execution
// reports it and says how to declare it; declared, nothing is reported and dfs is complete.
TEST_F(Reports, ADeclaredExitStatusIsNotABug) {
  const std::string program = kBin + "/cli_designed_exit six";
  const nlohmann::json found = run("-s dfs --jobs 1 -- " + program, 1);
  ASSERT_EQ(kinds(found), std::set<std::string>{"exit-code"}) << found.dump(1);
  EXPECT_NE(found["warnings"].dump().find("declare it with --expect-exit 6"), std::string::npos)
      << found.dump(1);
  for (const std::string strategy : {"dfs", "dpor", "pct", "random"})
    for (const std::string jobs : {"1", "2"}) {
      SCOPED_TRACE(strategy + " --jobs " + jobs);
      const nlohmann::json r = run("--expect-exit 6 -s " + strategy + " --jobs " + jobs + " -- " + program, 0);
      EXPECT_TRUE(kinds(r).empty()) << r.dump(1);
    }
  EXPECT_TRUE(run("--expect-exit 6 -s dfs --jobs 1 -- " + program, 0).value("complete", false));
  EXPECT_TRUE(kinds(run("--expect-exit any -s dfs -- " + program, 0)).empty());
}

// Declared, a status is still checked: another status, an assertion failure (a signal)
// are bugs; the message says which status was expected.
TEST_F(Reports, AnotherStatusThanTheDeclaredOneIsABug) {
  const nlohmann::json lost = run("--expect-exit 0 -s dfs --jobs 1 -- " + kBin + "/cli_designed_exit lost", 1);
  ASSERT_EQ(kinds(lost), std::set<std::string>{"exit-code"}) << lost.dump(1);
  EXPECT_NE(lost["bugs"][0].value("message", "").find("status 3"), std::string::npos) << lost.dump(1);
  EXPECT_TRUE(kinds(run("--expect-exit 3 -s dfs --jobs 1 -- " + kBin + "/cli_designed_exit lost", 1))
                  .contains("exit-code"));  // the schedules that lose no update exit 0
  const nlohmann::json asserted =
      run("--expect-exit 6 -s dfs --jobs 1 -- " + kBin + "/cli_designed_exit assert", 1);
  EXPECT_EQ(kinds(asserted), std::set<std::string>{"assertion"}) << asserted.dump(1);
  const nlohmann::json any = run("--expect-exit any -s dfs --jobs 1 -- " + kBin + "/cli_designed_exit assert", 1);
  EXPECT_EQ(kinds(any), std::set<std::string>{"assertion"}) << any.dump(1);
}

// `void main()`: whatever status it leaves is declared by --expect-exit any.
TEST_F(Reports, VoidMainWithAnyStatus) {
  for (const std::string strategy : {"dfs", "pct", "random"})
    EXPECT_TRUE(kinds(run("--expect-exit any -s " + strategy + " -- " + kBin + "/cli_void_main", 0)).empty());
}

// The schedule carries the declaration (or the replay would report the declared status as
// a bug of its own): the replay command needs no option.
TEST_F(Reports, TheScheduleCarriesTheDeclaration) {
  const std::string program = kBin + "/cli_designed_exit";
  Output o = weft("run -s dfs --jobs 1 --expect-exit 6 -- " + program + " assert");
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("replay it with: weft replay cli_designed_exit.weft-schedule -- " + program)) << o.out;
  std::ifstream in(dir_ / "cli_designed_exit.weft-schedule");
  std::string schedule;
  std::getline(in, schedule);
  EXPECT_NE(schedule.find(".expect-exit=6."), std::string::npos) << schedule;
  Output replayed = weft("replay cli_designed_exit.weft-schedule -- " + program + " assert");
  EXPECT_EQ(replayed.status, 1) << replayed.out;
  EXPECT_TRUE(replayed.has("bug: assertion")) << replayed.out;
}

// A bad declaration is one line naming the value and what is accepted, exit status 2
// (the variable weft run hands the program: hostile_input_test).
TEST_F(Reports, ABadExpectedStatusIsAnError) {
  for (const std::string bad : {"256", "-1", "six", "+6", "06", "", "6x", "anything"}) {
    SCOPED_TRACE(bad);
    Output o = weft("run --expect-exit '" + bad + "' -- " + kBin + "/cli_designed_exit six");
    EXPECT_EQ(o.status, 2) << o.out;
    EXPECT_TRUE(o.has("an exit status from 0 to 255, or 'any'")) << o.out;
  }
}

// A crash says where it faulted: the address the kernel gives, what kind of fault; for an
// access through a non-canonical pointer (0xabab..., from freed memory) the kernel gives
// none, and the report decodes it from the instruction instead of saying "address 0x0".
TEST_F(Reports, ACrashGivesTheFaultingAddress) {
  const struct {
    std::string mode, text;
  } cases[] = {
      {"garbage", "at address 0xabababababababb3 (not a canonical address"},
      {"unmapped", "at address 0x10000 (not mapped)"},
      {"readonly", "(mapped without the permission"},
      {"libc", "at address 0x10000 (not mapped)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mode);
    const nlohmann::json r = run("-s dfs --jobs 1 -- " + kBin + "/cli_crash_address " + c.mode, 1);
    ASSERT_EQ(kinds(r), std::set<std::string>{"crash"}) << r.dump(1);
    const std::string message = r["bugs"][0].value("message", "");
    EXPECT_NE(message.find(c.text), std::string::npos) << message;
    EXPECT_EQ(message.find("address 0x0 "), std::string::npos) << message;
    // The program's frame, though memcpy's is where it faulted.
    const std::string file = r["bugs"][0]["location"].value("file", "");
    EXPECT_NE(file.find("crash_address.c"), std::string::npos) << r["bugs"][0].dump(1);
  }
}

// A hang is reported only when the same execution, run again, hangs again: a stall a busy
// machine's starvation made does not come back (here the program stalls only the first
// time: a warning says so, and no bug). A real one says it was confirmed, and names the
// program's frame, not libc's read().
TEST_F(Reports, AHangIsConfirmedByRunningTheExecutionAgain) {
  for (const std::string strategy : {"dfs", "random"}) {
    SCOPED_TRACE(strategy);
    const std::string marker = (dir_ / ("stalled-" + strategy)).string();
    const nlohmann::json once =
        run("--hang-timeout 0.5 -s " + strategy + " --jobs 1 -- " + kBin + "/cli_stall_once " + marker, 0);
    EXPECT_TRUE(kinds(once).empty()) << once.dump(1);
    EXPECT_NE(once.dump().find("1 execution stalled"), std::string::npos) << once.dump(1);
  }
  const nlohmann::json hang = run("--hang-timeout 0.5 -s dfs --jobs 1 -- " + kBin + "/cli_blocked_read", 1);
  ASSERT_EQ(kinds(hang), std::set<std::string>{"hang"}) << hang.dump(1);
  const nlohmann::json& bug = hang["bugs"][0];
  EXPECT_NE(bug.value("message", "").find("run again, hung again"), std::string::npos) << bug.dump(1);
  EXPECT_NE(bug["location"].value("file", "").find("blocked_read.c"), std::string::npos) << bug.dump(1);
  EXPECT_EQ(hang.dump().find("stalled"), std::string::npos) << hang.dump(1);
}

// A report of any length is written at once and stays small: a long execution's last 1000
// steps in every report (text, JSON, --html, --trace-out), all with --full-trace; its
// schedule (200 KB for 100,000 steps, more than one environment string holds) replays.
TEST_F(Reports, ALongTraceIsBoundedInEveryReport) {
  const std::string program = kBin + "/cli_two_spinners";
  const nlohmann::json r = run("-s random --jobs 1 --html page.html --trace-out trace.json -- " + program, 1);
  ASSERT_EQ(kinds(r), std::set<std::string>{"livelock"}) << r.dump(1).substr(0, 2000);
  const nlohmann::json& bug = r["bugs"][0];
  EXPECT_EQ(bug["steps"], 100000);
  EXPECT_EQ(bug["trace"].size(), 1000u);
  EXPECT_EQ(bug["trace_omitted"], 99000);
  EXPECT_EQ(bug["trace"][0]["step"], 99001);
  EXPECT_LT(fs::file_size(dir_ / "page.html"), 2'000'000u);
  EXPECT_LT(fs::file_size(dir_ / "trace.json"), 2'000'000u);

  Output text = weft("run -s random --jobs 1 -- " + program);
  EXPECT_EQ(text.status, 1);
  EXPECT_LT(text.out.size(), 500'000u);
  EXPECT_TRUE(text.has("the last 1000 shown, --full-trace shows all")) << text.out.substr(0, 1000);
  Output replayed = weft("replay cli_two_spinners.weft-schedule -- " + program);
  EXPECT_EQ(replayed.status, 1) << replayed.out.substr(0, 2000);
  EXPECT_TRUE(replayed.has("bug: livelock")) << replayed.out.substr(0, 2000);

  const nlohmann::json full = run("--full-trace --steps 5000 -s random --jobs 1 -- " + program, 1);
  EXPECT_EQ(full["bugs"][0]["trace"].size(), 5000u);
  EXPECT_FALSE(full["bugs"][0].contains("trace_omitted"));
}

// Livelocks that are progress (issue #25, 2a, 2b): a parallel-for's atomic increments of
// an array change memory at every step, so its long executions are cut at the bound under
// every strategy, never a good-samaritan violation; a detached thread that polls under a
// lock and sleeps lets main exit under every fair schedule (dfs completes).
TEST_F(Reports, ProgressIsNotALivelock) {
  for (const std::string strategy : {"dfs", "pct", "pos", "random", "pb", "dpor"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r =
        run("--steps 5000 -n 30 -s " + strategy + " --jobs 1 -- " + kBin + "/cli_parallel_for", 0);
    EXPECT_TRUE(kinds(r).empty()) << r.dump(1).substr(0, 2000);
    EXPECT_GT(r.value("cut_executions", 0), 0) << r.dump(1).substr(0, 2000);
    const nlohmann::json poll = run("-n 30 -s " + strategy + " --jobs 1 -- " + kBin + "/cli_poll_detached", 0);
    EXPECT_TRUE(kinds(poll).empty()) << poll.dump(1).substr(0, 2000);
  }
  EXPECT_TRUE(run("-n 0 -s dfs --jobs 1 -- " + kBin + "/cli_poll_detached", 0).value("complete", false));
}

// A spin nobody ends (2c): instrumented, a livelock at the step bound; built without
// weft's wrappers its loads take no step, and the hang says the thread computes.
TEST_F(Reports, ASpinNobodyEndsIsALivelockOrAComputingHang) {
  const nlohmann::json seen = run("--steps 5000 -s dfs --jobs 1 -- " + kBin + "/cli_spin_on_flag", 1);
  EXPECT_EQ(kinds(seen), std::set<std::string>{"livelock"}) << seen.dump(1).substr(0, 2000);
  const nlohmann::json unseen =
      run("--hang-timeout 0.5 -s dfs --jobs 1 -- " + kBin + "/cli_spin_on_flag_plain", 1);
  ASSERT_EQ(kinds(unseen), std::set<std::string>{"hang"}) << unseen.dump(1).substr(0, 2000);
  EXPECT_NE(unseen["bugs"][0].value("message", "").find("computes outside weft's view"), std::string::npos)
      << unseen["bugs"][0].dump(1);
}

// Bugs that show only as wrong output (issue #25, 7): --check-output compares each
// execution's stdout, or a file the program writes, with the serial execution's; a missing
// barrier in numeric code is a wrong-output bug with a diff, and its replay shows the same;
// with the barrier, no strategy reports anything and dfs completes. (Built without weft's
// wrappers, the workers' accesses are no dependences dpor could see: not dpor here.)
TEST_F(Reports, WrongOutputIsABugWithADiff) {
  const std::string program = kBin + "/cli_missing_barrier";
  for (const std::string strategy : {"dfs", "pct", "random", "pb"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r = run("--check-output -s " + strategy + " --jobs 1 -- " + program + " bug", 1);
    ASSERT_EQ(kinds(r), std::set<std::string>{"wrong-output"}) << r.dump(1).substr(0, 2000);
    EXPECT_NE(r["bugs"][0].value("details", "").find("--- the serial execution"), std::string::npos);
    EXPECT_TRUE(kinds(run("--check-output -s " + strategy + " --jobs 2 -- " + program, 0)).empty());
  }
  EXPECT_TRUE(run("--check-output -s dfs -n 0 --jobs 1 -- " + program, 0).value("complete", false));
  EXPECT_TRUE(kinds(run("-s dfs --jobs 1 -- " + program + " bug", 0)).empty());  // not asked

  const nlohmann::json file =
      run("--check-output totals.txt -s dfs --jobs 1 -- " + program + " bug totals.txt", 1);
  ASSERT_EQ(kinds(file), std::set<std::string>{"wrong-output"}) << file.dump(1).substr(0, 2000);
  EXPECT_NE(file["bugs"][0].value("message", "").find("(totals.txt) differs"), std::string::npos);

  Output found = weft("run --check-output -s random --jobs 1 -- " + program + " bug");
  EXPECT_EQ(found.status, 1);
  // The schedule records --check-output: the replay command repeats it not.
  EXPECT_TRUE(found.has("replay it with: weft replay cli_missing_barrier.weft-schedule -- ")) << found.out;
  Output replayed = weft("replay cli_missing_barrier.weft-schedule -- " + program + " bug");
  EXPECT_EQ(replayed.status, 1) << replayed.out;
  EXPECT_TRUE(replayed.has("bug: wrong-output")) << replayed.out;
}

// A race and what it leads to (issue #25, 8): with the default --races fail, the search goes
// on past the first race, its accesses scheduling points, and reports the race with the
// assertion its lost update fails ("leads to"), and that assertion's schedule replays it.
// The locked twin: nothing. (Two workers: the samplers, whose workers search apart; a
// systematic search's team splits its work as the workers' timing goes.)
TEST_F(Reports, ARaceIsReportedWithWhatItLeadsTo) {
  const std::string program = kBin + "/cli_race_leads_to";
  for (const std::string strategy : {"random", "pct", "pos", "dfs", "pb"})
    for (const std::string jobs : {"1", "2"}) {
      if (jobs == "2" && (strategy == "dfs" || strategy == "pb")) continue;
      SCOPED_TRACE(strategy + " --jobs " + jobs);
      const nlohmann::json r = run("-s " + strategy + " --jobs " + jobs + " -- " + program + " bug", 1);
      ASSERT_EQ(kinds(r), std::set<std::string>{"data-race"}) << r.dump(1).substr(0, 2000);
      const nlohmann::json& race = r["bugs"][0];
      EXPECT_GT(race.value("leads_to_searched", 0), 0) << race.dump(1).substr(0, 2000);
      ASSERT_TRUE(race.contains("leads_to")) << race.dump(1).substr(0, 2000);
      EXPECT_EQ(race["leads_to"]["kind"], "assertion");
      // Minimised too (#26): a lost update needs one preemption (pos found it with 4).
      EXPECT_EQ(race["leads_to"]["preemptions"], 1) << race["leads_to"].dump(1).substr(0, 2000);
      EXPECT_TRUE(kinds(run("-s " + strategy + " --jobs " + jobs + " -- " + program, 0)).empty());
    }
  const nlohmann::json r = run("-s random --jobs 1 -- " + program + " bug", 1);
  std::ofstream(dir_ / "leads.weft-schedule") << r["bugs"][0]["leads_to"].value("schedule", "") << "\n";
  Output replayed = weft("replay leads.weft-schedule --races=report -- " + program + " bug");
  EXPECT_EQ(replayed.status, 1) << replayed.out;
  EXPECT_TRUE(replayed.has("bug: assertion")) << replayed.out;
  Output text = weft("run -s random --jobs 1 -- " + program + " bug");
  EXPECT_TRUE(text.has("leads to: assertion: assert(balance == 20) failed")) << text.out;
  EXPECT_TRUE(text.has("replay it with --races=report")) << text.out;
}

// The step lines of a text report's interleaving that show `op` (not a fold's count of it).
std::vector<std::string> step_lines(const std::string& text, const std::string& op) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find_first_not_of(" >");
    if (at != std::string::npos && at > 0 && std::isdigit(static_cast<unsigned char>(line[at])) &&
        line.find(op) != std::string::npos)
      found.push_back(line);
  }
  return found;
}

// Issue #26: the culprit is never folded. A destructor sets `stop` and broadcasts between
// its worker's check of `stop` and its wait, amid runs of other steps: the report shows
// the store and the broadcast as steps, not inside "... steps folded".
TEST_F(Reports, ALostWakeupShowsTheFlagAndTheBroadcastItMissed) {
  const Output o = weft("run -s dfs --jobs 1 -- " + kBin + "/cli_lost_stop");
  ASSERT_EQ(o.status, 1) << o.out;
  ASSERT_TRUE(o.has("bug: deadlock")) << o.out;
  EXPECT_EQ(step_lines(o.out, "atomic-store").size(), 1u) << o.out;
  EXPECT_EQ(step_lines(o.out, "cond-broadcast").size(), 1u) << o.out;
  EXPECT_TRUE(o.has("steps folded")) << "the rest still folds\n" << o.out;
}

// Both accesses of a race, the earlier followed by a long run of its thread's steps.
TEST_F(Reports, ARaceShowsBothAccesses) {
  const Output o = weft("run -s dfs --jobs 1 --preempt-on all -- " + kBin + "/cli_race_folded");
  ASSERT_EQ(o.status, 1) << o.out;
  ASSERT_TRUE(o.has("bug: data-race")) << o.out;
  EXPECT_EQ(step_lines(o.out, "read shared").size(), 1u) << o.out;
  EXPECT_EQ(step_lines(o.out, "write shared").size(), 1u) << o.out;
  EXPECT_TRUE(o.has("steps folded")) << o.out;
}

}  // namespace

namespace {

// The trace step of `result`'s first bug with `op` on `object_name` by `thread` (any: -1).
std::vector<nlohmann::json> steps_of(const nlohmann::json& result, const std::string& op,
                                     const std::string& object, int thread = -1) {
  std::vector<nlohmann::json> out;
  for (const auto& s : result["bugs"][0]["trace"])
    if (s["op"] == op && s["object_name"] == object && (thread < 0 || s["thread"] == thread))
      out.push_back(s);
  return out;
}

// Issue #26: each read and write shows its value, and names its object by the debug
// information (a member of an array element: accounts[1].balance). A lost update: both
// workers read 0 and write 41; their read-modify-writes take turns 0 -> 2 -> 4, and of
// their compare-exchanges on `owner` the second fails, reading the first one's id.
TEST_F(Reports, EachAccessShowsTheValueItReadOrWrote) {
  const std::string args =
      "-s dfs --jobs 1 --races off --preempt-on all -- " + kBin + "/cli_lost_count";
  const Output o = weft("run " + args);
  ASSERT_EQ(o.status, 1) << o.out;
  ASSERT_TRUE(o.has("bug: assertion")) << o.out;
  EXPECT_EQ(step_lines(o.out, "read count -> 0").size(), 2u) << o.out;
  EXPECT_EQ(step_lines(o.out, "write count = 41").size(), 2u) << o.out;
  EXPECT_EQ(step_lines(o.out, "atomic-rmw turns 0 -> 2").size(), 1u) << o.out;
  EXPECT_EQ(step_lines(o.out, "atomic-rmw turns 2 -> 4").size(), 1u) << o.out;
  const auto claimed = step_lines(o.out, "atomic-cas owner 0 -> ");
  const auto failed = step_lines(o.out, "atomic-cas (failed) owner -> ");
  ASSERT_EQ(claimed.size(), 1u) << o.out;
  ASSERT_EQ(failed.size(), 1u) << o.out;
  const char winner = claimed[0][claimed[0].find("0 -> ") + 5];
  EXPECT_TRUE(winner == '7' || winner == '9') << claimed[0];
  EXPECT_NE(failed[0].find(std::string("-> ") + winner), std::string::npos)
      << "the failed one read the winner's id\n" << o.out;
  // A member of an array element, by the debug information's type.
  EXPECT_EQ(step_lines(o.out, "write accounts[1].balance = ").size(), 2u) << o.out;
  EXPECT_FALSE(o.has("accounts+")) << o.out;

  const nlohmann::json j = run(args, 1);
  ASSERT_EQ(j["bugs"].size(), 1u);
  const auto writes = steps_of(j, "write", "count");
  ASSERT_EQ(writes.size(), 2u);
  for (const auto& w : writes) {
    EXPECT_EQ(w.value("value_after", -1), 41) << w;
    EXPECT_FALSE(w.contains("value_before")) << w;
  }
  for (int worker : {1, 2}) {
    const auto reads = steps_of(j, "read", "count", worker);
    ASSERT_EQ(reads.size(), 1u) << "T" << worker;
    EXPECT_EQ(reads[0].value("value_before", -1), 0) << reads[0];
    EXPECT_FALSE(reads[0].contains("value_after")) << reads[0];
  }
}

// Reading a value for the report never moves a crash: a read of a null pointer, itself a
// scheduling point, is reported at the program's line with the address it faulted on,
// and shows no value.
TEST_F(Reports, AFaultingAccessIsTheProgramsCrashWithNoValue) {
  const nlohmann::json j =
      run("-s dfs --jobs 1 --races off --preempt-on all -- " + kBin + "/cli_null_deref", 1);
  ASSERT_EQ(j["bugs"].size(), 1u);
  const auto& bug = j["bugs"][0];
  EXPECT_EQ(bug["kind"], "crash");
  EXPECT_NE(bug["message"].get<std::string>().find("at address 0x0"), std::string::npos) << bug;
  EXPECT_NE(bug["location"]["file"].get<std::string>().find("null_deref.c"), std::string::npos)
      << bug["location"];
  EXPECT_EQ(bug["location"]["line"], 13) << bug["location"];
  const auto& last = bug["trace"].back();
  EXPECT_EQ(last["op"], "read");
  EXPECT_FALSE(last.contains("value_before")) << last;
}

}  // namespace

namespace {

// Issue #26: a local is named by its variable and member from the debug information. The
// worker polls, and the destructor sets, `stop_` of main's local `w`; the report says
// w.stop_ and w.wake_, not stack#1 (T0).
TEST_F(Reports, ALocalIsNamedByItsVariableAndMember) {
  const Output o = weft("run -s dfs --jobs 1 -- " + kBin + "/cli_lost_stop");
  ASSERT_EQ(o.status, 1) << o.out;
  EXPECT_EQ(step_lines(o.out, "atomic-store w.stop_ = 1").size(), 1u) << o.out;
  EXPECT_EQ(step_lines(o.out, "atomic-load w.stop_ -> 0").size(), 1u) << o.out;
  EXPECT_EQ(step_lines(o.out, "cond-broadcast w.wake_").size(), 1u) << o.out;
  EXPECT_TRUE(o.has("cond-wait    w.wake_")) << "the blocked thread's wait\n" << o.out;
  EXPECT_FALSE(o.has("stack#")) << o.out;
}

}  // namespace

namespace {

// Issue #26: a heap block is named by the global pointer that held it when the execution
// ended, and its members through it: the race is on q->count, not heap#1+8.
TEST_F(Reports, AHeapBlockIsNamedByTheGlobalPointerToIt) {
  const Output o = weft("run -s dfs --jobs 1 -- " + kBin + "/cli_global_queue");
  ASSERT_EQ(o.status, 1) << o.out;
  EXPECT_TRUE(o.has("race on q->count at 0x")) << o.out;
  EXPECT_TRUE(o.has("*q (heap#1)  32 bytes  allocated by T0")) << o.out;
  const nlohmann::json j = run("-s dfs --jobs 1 -- " + kBin + "/cli_global_queue", 1);
  EXPECT_EQ(j["bugs"][0]["race"]["object_name"], "q->count") << j["bugs"][0]["race"];
  EXPECT_EQ(j["bugs"][0]["heap_objects"][0]["label"], "*q (heap#1)");
}

}  // namespace

namespace {

// Reading a write's value for the report never makes a crash: memory a write went to and
// the program then unmaps (munmap, mremap) before its next step is read before it goes.
// Every schedule, every access a step: no bug.
TEST_F(Reports, AWriteToMemoryUnmappedBeforeTheNextStepIsNoCrash) {
  for (const std::string strategy : {"dfs", "random"}) {
    const nlohmann::json j = run("-s " + strategy + " --jobs 1 -n 200 --races off --preempt-on all -- " +
                                 kBin + "/cli_unmap_after_write", 0);
    EXPECT_TRUE(j["bugs"].empty()) << j.dump(1).substr(0, 3000);
  }
}

}  // namespace
