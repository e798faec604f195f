// Coverage claims are promises: a search that says "complete" or "every class explored"
// ran every schedule the claim names. Each case here was once a false claim.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

std::string weft() { return kBin + "/weft"; }

class Claims : public weft::test::TempDirTest {
 protected:
  // `weft run --json - ARGS`: the result, with the exit status checked.
  nlohmann::json run(const std::string& args, int expect_status) {
    const std::string command = weft() + " run --json - " + args;
    Output o = sh("cd " + dir_.string() + " && " + command, "2>/dev/null");
    EXPECT_EQ(o.status, expect_status) << command << "\n" << o.out;
    auto j = nlohmann::json::parse(o.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << command << "\n" << o.out;
    return j;
  }
};

std::set<std::string> kinds(const nlohmann::json& result) {
  std::set<std::string> out;
  for (const auto& b : result.value("bugs", nlohmann::json::array())) out.insert(b.value("kind", ""));
  return out;
}

// However the process ends (exit, _exit, _Exit, quick_exit, abort, main's return with a
// thread still running), the end is a step that conflicts with every other thread's next
// one: dpor and the bounded searches also run the other thread's assertion first.
TEST_F(Claims, EveryWayAProcessEndsConflictsWithEveryThread) {
  const std::string program = kBin + "/cli_exit_kinds";
  for (const std::string how : {"_exit", "_Exit", "quick_exit", "exit", "return", "abort"})
    for (const std::string strategy : {"dpor", "dfs", "pb", "db"})
      for (const std::string jobs : {"1", "2"}) {
        SCOPED_TRACE(how + " " + strategy + " --jobs " + jobs);
        const nlohmann::json r =
            run("--keep-going -s " + strategy + " --jobs " + jobs + " -- " + program + " " + how, 1);
        EXPECT_TRUE(kinds(r).contains("assertion")) << r.dump(1);
        if (how == "abort") EXPECT_TRUE(kinds(r).contains("crash")) << r.dump(1);
      }
}

// exec replaces the program: the run stops with a tool error (exit 2), whichever member
// of the family is called, from main or from a thread; nothing is claimed.
TEST_F(Claims, ExecStopsTheRunWithAToolError) {
  const std::string program = kBin + "/cli_exec_kinds";
  for (const std::string how : {"execl", "execlp", "execle", "execv", "execvp", "execvpe"})
    for (const std::string where : {"main", "thread"}) {
      SCOPED_TRACE(how + " in " + where);
      Output o = sh("cd " + dir_.string() + " && " + weft() + " run -s pb --jobs 1 -- " + program +
                    " " + how + " " + where);
      EXPECT_EQ(o.status, 2) << o.out;
      EXPECT_TRUE(o.has("the program calls " + how + "()")) << o.out;
      EXPECT_FALSE(o.has("no bug found")) << o.out;
    }
}

// A budget stops a search before its space is done, with one worker or several: the run
// is not complete, in JSON and text, whatever bound each worker finished.
TEST_F(Claims, ABudgetIsNeverComplete) {
  for (const std::string strategy : {"pb", "db", "dfs", "dpor", "bf:pb"})
    for (const std::string jobs : {"1", "2"}) {
      SCOPED_TRACE(strategy + " --jobs " + jobs);
      const nlohmann::json r =
          run("-s " + strategy + " -n 20 --jobs " + jobs + " -- " + kBin + "/cli_locked3", 0);
      EXPECT_FALSE(r.value("complete", true)) << r.dump(1);
      const std::string summary = r["coverage"].value("summary", "");
      EXPECT_EQ(summary.find("whole space"), std::string::npos) << summary;
      EXPECT_EQ(summary.find("complete: every schedule explored"), std::string::npos) << summary;
      // (On two workers a worker's own part, in brackets, may be complete: the whole is not.)
      if (jobs == "1")
        EXPECT_EQ(summary.find("every happens-before class explored"), std::string::npos) << summary;
      else
        EXPECT_TRUE(summary.ends_with("; not complete")) << summary;
    }
  // A time budget: the space of three threads taking a lock 5,000 times each is far too
  // large to finish, however fast the machine.
  for (const std::string strategy : {"pb", "db"}) {
    const nlohmann::json r =
        run("-s " + strategy + " --time 1 --jobs 2 --steps 40000 -- " + kBin + "/cli_long_locked", 0);
    EXPECT_FALSE(r.value("complete", true)) << r.dump(1);
  }
  // Without a budget, the same search ends complete on two workers.
  const nlohmann::json done = run("-s pb -n 0 --jobs 2 -- " + kBin + "/cli_locked3", 0);
  EXPECT_TRUE(done.value("complete", false)) << done.dump(1);
}

// free() writes its whole block: a worker's read of a queue that main frees, with nothing
// ordering the two, is a data race under every systematic strategy (and, read after the
// free, a use after free: the search goes on past it); joined first, none.
TEST_F(Claims, FreeingABlockAnotherThreadUsesIsARace) {
  const std::string program = kBin + "/cli_free_while_used";
  for (const std::string strategy : {"dpor", "dfs", "pb"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r = run("-s " + strategy + " --jobs 1 --keep-going -- " + program, 1);
    EXPECT_TRUE(kinds(r).contains("data-race")) << r.dump(1);
    EXPECT_TRUE(kinds(r).contains("use-after-free")) << r.dump(1);
    EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
    const nlohmann::json twin = run("-s " + strategy + " --jobs 1 -- " + program + " joined", 0);
    EXPECT_TRUE(twin.value("complete", false)) << twin.dump(1);
  }
}

// A consumer that takes from a queue main deleted is a use after free, reported with the
// access, the free and the allocation (it once ran clean: freed memory was not checked);
// joined first, or reference counted, never. With --races report the race between the
// free and a take just before it is listed, and the search goes on to the use.
TEST_F(Claims, UsingAQueueAnotherThreadDeletedIsAUseAfterFree) {
  const std::string program = kBin + "/cli_deleted_queue";
  for (const std::string strategy : {"dfs", "dpor", "pct", "random"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r =
        run("-s " + strategy + " -n 2000 --races report --jobs 1 -- " + program, 1);
    ASSERT_EQ(r["bugs"].size(), 1u) << r.dump(1);
    const nlohmann::json& bug = r["bugs"][0];
    EXPECT_EQ(bug.value("kind", ""), "use-after-free") << bug.dump(1);
    const nlohmann::json& accesses = bug["race"]["accesses"];
    EXPECT_EQ(accesses[0].value("access", ""), "free") << bug.dump(1);
    // (clang merges the two inlined paths that end in free(q) into one call in main, at
    // line 0: the place is then main's.)
    const std::string freed_in = accesses[0]["location"].value("function", "");
    EXPECT_TRUE(freed_in == "queue_delete" || freed_in == "main") << bug.dump(1);
    EXPECT_EQ(accesses[1]["location"].value("function", ""), "queue_take") << bug.dump(1);
    ASSERT_EQ(bug["heap_objects"].size(), 1u) << bug.dump(1);
    EXPECT_EQ(bug["heap_objects"][0]["location"].value("function", ""), "queue_new") << bug.dump(1);
    for (const std::string twin : {"joined", "refcount"}) {
      SCOPED_TRACE(twin);
      const nlohmann::json ok = run("-s " + strategy + " -n 300 --jobs 1 -- " + program + " " + twin, 0);
      EXPECT_TRUE(ok["bugs"].empty()) << ok.dump(1);
      if (strategy == "dfs" || strategy == "dpor") EXPECT_TRUE(ok.value("complete", false)) << ok.dump(1);
    }
  }
  // The text report says the same: where the block was used, freed and allocated.
  Output o = sh("cd " + dir_.string() + " && " + weft() + " run -s dpor --jobs 1 -- " + program,
                "2>&1");
  EXPECT_EQ(o.status, 1) << o.out;
  // (The take's first use of the queue is its lock: a call on a mutex in freed memory.)
  for (const std::string words : {"bug: use-after-free: thread 1 calls mutex-lock on 40 bytes of", "use of freed heap#1",
                                  "freed ", "72 bytes  ", "heap#1  72 bytes  allocated by T0"})
    EXPECT_NE(o.out.find(words), std::string::npos) << words << "\n" << o.out;
}

// Freeing a block twice is a use after free of it; freeing a pointer no allocation
// returned (8 bytes into a block) is an invalid free; freeing it once, nothing.
TEST_F(Claims, DoubleAndInvalidFreesAreReported) {
  const std::string program = kBin + "/cli_bad_free";
  for (const std::string strategy : {"dfs", "dpor", "random"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json twice = run("-s " + strategy + " --jobs 1 -- " + program + " double", 1);
    ASSERT_EQ(twice["bugs"].size(), 1u) << twice.dump(1);
    EXPECT_EQ(twice["bugs"][0].value("kind", ""), "use-after-free") << twice.dump(1);
    EXPECT_TRUE(twice["bugs"][0].value("message", "").starts_with("double free")) << twice.dump(1);
    EXPECT_EQ(twice["bugs"][0]["race"]["accesses"][1].value("access", ""), "free") << twice.dump(1);
    const nlohmann::json offset = run("-s " + strategy + " --jobs 1 -- " + program + " offset", 1);
    ASSERT_EQ(offset["bugs"].size(), 1u) << offset.dump(1);
    EXPECT_EQ(offset["bugs"][0].value("kind", ""), "invalid-free") << offset.dump(1);
    EXPECT_EQ(offset["bugs"][0]["location"].value("function", ""), "worker") << offset.dump(1);
    const nlohmann::json once = run("-s " + strategy + " --jobs 1 -- " + program, 0);
    EXPECT_TRUE(once["bugs"].empty()) << once.dump(1);
  }
}

// What a claim covers is said, in text and JSON: without race detection plain accesses
// are not scheduling points, and the claim is about synchronisation only.
TEST_F(Claims, TheClaimSaysWhichOperationsItCovers) {
  const std::string program = " -- " + kBin + "/cli_locked3";
  const struct {
    std::string options, points, words;
  } cases[] = {
      {"--races off", "sync", "points: synchronisation and atomics only (plain memory accesses"},
      {"--preempt-on sync", "sync", "points: synchronisation and atomics only (plain memory"},
      {"", "racy", "points: synchronisation, atomics and the accesses seen racing"},
      {"--preempt-on all", "every-access", "points: every instrumented access"},
  };
  for (const auto& c : cases)
    for (const std::string jobs : {"1", "2"}) {
      SCOPED_TRACE(c.options + " --jobs " + jobs);
      const nlohmann::json r = run("-s dpor --jobs " + jobs + " " + c.options + program, 0);
      EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
      EXPECT_EQ(r["coverage"].value("points", ""), c.points) << r.dump(1);
      const std::string summary = r["coverage"].value("summary", "");
      EXPECT_NE(summary.find(c.words), std::string::npos) << summary;
      EXPECT_EQ(summary.find("whole space"), std::string::npos) << summary;
    }
  // A sampler claims nothing, so says nothing of it.
  const nlohmann::json sampled = run("-s random -n 5 --jobs 1" + program, 0);
  EXPECT_FALSE(sampled["coverage"].contains("points")) << sampled.dump(1);
}

// A time budget holds inside an execution: two threads spinning for ever on a plain flag,
// with a step bound too far to reach, are stopped at --time, and the run reports.
TEST_F(Claims, ATimeBudgetHoldsInsideAnExecution) {
  for (const std::string strategy : {"random", "dfs", "dpor"}) {
    SCOPED_TRACE(strategy);
    Output o = sh("cd " + dir_.string() + " && timeout 150 " + weft() + " run --json - -s " +
                      strategy + " --jobs 1 --races off --time 1 --steps 10000000 -- " + kBin +
                      "/cli_spin_forever",
                  "2>/dev/null");
    ASSERT_EQ(o.status, 0) << o.out;
    const auto r = nlohmann::json::parse(o.out, nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << o.out;
    EXPECT_FALSE(r.value("complete", true));
    EXPECT_TRUE(r["bugs"].empty()) << r.dump(1);
    // (On a loaded machine the budget may end before the first execution begins.)
    if (r.value("executions", 0) != 0)
      EXPECT_NE(r["warnings"].dump().find("ran out during execution"), std::string::npos)
          << r.dump(1);
  }
}

// Code run as if atomic (--no-preempt-in) carries its steps' dependences: dpor reverses
// a race with a step inside a region before the region began, and finds what dfs finds.
TEST_F(Claims, AtomicRegionsKeepTheirDependences) {
  const std::string program = " -- " + kBin + "/cli_atomic_regions";
  const std::string regions = " --jobs 1 --no-preempt-in read_balance,write_balance,withdraw_at_once";
  for (const std::string strategy : {"dfs", "dpor", "pb", "bf:mdpor,pb"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r = run("-s " + strategy + regions + program, 1);
    EXPECT_TRUE(kinds(r).contains("assertion")) << r.dump(1);
    const nlohmann::json twin = run("-s " + strategy + regions + program + " one", 0);
    EXPECT_TRUE(twin.value("complete", false)) << twin.dump(1);
  }
}

// A region that takes a lock right after its thread released it: the other thread's lock
// is reversed with the lock before (the claims oracle's seed 3375, with regions).
TEST_F(Claims, ARegionRightAfterAnUnlockIsNotWhereTheLockIsReversed) {
  const std::string program = " -- " + kBin + "/cli_region_after_lock";
  const std::string regions = " --jobs 1 --no-preempt-in check_published";
  for (const std::string strategy : {"dfs", "dpor", "pb", "bf:mdpor,pb"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json r = run("-s " + strategy + regions + program, 1);
    EXPECT_TRUE(kinds(r).contains("assertion")) << r.dump(1);
    const nlohmann::json twin = run("-s " + strategy + regions + program + " twin", 0);
    EXPECT_TRUE(twin.value("complete", false)) << twin.dump(1);
    EXPECT_TRUE(twin.value("bugs", nlohmann::json::array()).empty()) << twin.dump(1);
  }
}

// Racy accesses found by one worker become scheduling points for every worker: the team
// searches one space and claims it, as one worker does (they once ended on different
// spaces, and claimed nothing, or claimed the old one).
TEST_F(Claims, WorkersShareTheRacyAccessesTheyFind) {
  // (Its use after free is a bug: the searches go on past it.)
  const std::string program = " --keep-going -- " + kBin + "/cli_free_while_used";
  for (const std::string strategy : {"dpor", "pb", "dfs"}) {
    SCOPED_TRACE(strategy);
    const nlohmann::json one = run("-s " + strategy + " --races report --jobs 1" + program, 1);
    const nlohmann::json two = run("-s " + strategy + " --races report --jobs 2" + program, 1);
    ASSERT_TRUE(one.value("complete", false)) << one.dump(1);
    EXPECT_FALSE(one["racy_points"].empty()) << one.dump(1);
    EXPECT_TRUE(two.value("complete", false)) << two.dump(1);
    EXPECT_EQ(two["racy_points"], one["racy_points"]) << two.dump(1);
    EXPECT_EQ(two["coverage"].value("points", ""), "racy") << two.dump(1);
    const std::string summary = two["coverage"].value("summary", "");
    EXPECT_EQ(summary.find("no coverage claim"), std::string::npos) << summary;
    EXPECT_EQ(summary.find("plain memory accesses were not"), std::string::npos) << summary;
  }
}

// A deadlock, or an exit while another thread waits for a mutex, leaves steps blocked that
// no execution took; the order they would have had (the waiting thread taking the mutex
// first) is a class of its own, here the one that fails the assertion. dpor once claimed
// every class with the deadlock alone.
TEST_F(Claims, StepsLeftBlockedRaceToo) {
  const std::string program = kBin + "/cli_order_behind_deadlock";
  for (const std::string how : {"deadlock", "exit"})
    for (const std::string strategy : {"dpor", "dfs", "pb"})
      for (const std::string jobs : {"1", "2"}) {
        SCOPED_TRACE(how + " " + strategy + " --jobs " + jobs);
        const nlohmann::json r =
            run("--keep-going -s " + strategy + " --jobs " + jobs + " -- " + program + " " + how, 1);
        EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
        EXPECT_TRUE(kinds(r).contains("assertion")) << r.dump(1);
        EXPECT_EQ(kinds(r).contains("deadlock"), how == "deadlock") << r.dump(1);
      }
}

// An object published before it is filled in (double-checked locking on a plain pointer):
// the constructor's write and the program's own write of the port share an epoch, and
// both race with the reader. With --races report each racing location becomes a point
// (once only the first of an epoch did, and pb ran every schedule of up to 2 preemptions
// without the assertion); the twin that fills in before publishing, under the lock, has
// no race and no bug.
TEST_F(Claims, EveryRacingWriteOfAnEpochBecomesAPoint) {
  const std::string program = kBin + "/cli_publish_then_fill";
  for (const std::string how : {"", "fixed"})
    for (const std::string strategy : {"pb", "dpor"}) {
      SCOPED_TRACE(how + " " + strategy);
      const bool bug = how.empty();
      const nlohmann::json r = run("--keep-going -s " + strategy + " --jobs 1 --races report -- " + program + " " + how,
                                   bug ? 1 : 0);
      EXPECT_EQ(kinds(r).contains("assertion"), bug) << r.dump(1);
      EXPECT_EQ(r.value("races", nlohmann::json::array()).empty(), !bug) << r.dump(1);
      EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
    }
}

// A try-join reads the joined thread's end: dpor runs the order where the thread ended
// first, and a poll that succeeds orders what the thread did before what follows it (no
// race, no bug, and the poll ends: fairness sees a failed try as a spin step).
TEST_F(Claims, ATryJoinDependsOnTheThreadsEnd) {
  const std::string program = kBin + "/cli_try_join";
  for (const std::string how : {"once", "poll"})
    for (const std::string strategy : {"dpor", "dfs", "pb"}) {
      SCOPED_TRACE(how + " " + strategy);
      const bool bug = how == "once";
      const nlohmann::json r = run("--keep-going -s " + strategy + " --jobs 1 -- " + program + " " + how, bug ? 1 : 0);
      EXPECT_EQ(kinds(r).contains("assertion"), bug) << r.dump(1);
      EXPECT_FALSE(kinds(r).contains("data-race")) << r.dump(1);
      EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
    }
}

// The only thread left reads what a thread it never joined wrote: the accesses are steps
// (the write's end does not happen before them), so dpor reverses the race and finds the
// assertion, with or without race detection, as dfs does; the twin that joins first has
// nothing to find, and every search says complete. (The weft::explore default, races off
// and every access a point, is the configuration dpor once claimed complete in.)
TEST_F(Claims, TheLastThreadLeftStillRacesWithThreadsItNeverJoined) {
  const std::string program = kBin + "/cli_last_thread_left";
  for (const std::string how : {"unjoined", "detached", "joined"})
    for (const std::string points : {"--races off --preempt-on all", "--races report", ""})
      for (const std::string strategy : {"dpor", "dfs", "pb"}) {
        SCOPED_TRACE(how + " " + strategy + " " + points);
        const bool bug = how != "joined";
        const nlohmann::json r =
            run("--keep-going -s " + strategy + " --jobs 1 " + points + " -- " + program + " " + how, bug ? 1 : 0);
        EXPECT_EQ(kinds(r).contains("assertion"), bug) << r.dump(1);
        EXPECT_TRUE(r.value("complete", false)) << r.dump(1);
      }
}

}  // namespace
