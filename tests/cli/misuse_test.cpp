// Threading API misuse (api-misuse), end to end: each misuse of programs/api_misuse.cpp is
// reported as api-misuse, with the call and the object's history, under a systematic and
// a random search; each correct twin (defined errors the program expects, static and
// std::mutex initialisation, a mutex destroyed and made again) never is.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const std::string kSource = WEFT_PROGRAMS_DIR "/api_misuse.cpp";

using weft::test::Output;
using weft::test::sh;

std::string weft() { return kBin + "/weft"; }

// The line of api_misuse.cpp that holds `marker` ("// MARKER").
int line_of(const std::string& marker) {
  std::ifstream source(kSource);
  int line = 0;
  for (std::string text; std::getline(source, text);) {
    ++line;
    if (text.find("// " + marker) != std::string::npos) return line;
  }
  return 0;
}

std::string at(const std::string& marker) { return "api_misuse.cpp:" + std::to_string(line_of(marker)); }

// Whether `out` has each of `parts` on one line, in order (paths before the file names
// are the build's).
bool line_has(const std::string& out, std::initializer_list<std::string> parts) {
  std::size_t start = 0;
  while (start < out.size()) {
    const std::size_t end = std::min(out.find('\n', start), out.size());
    const std::string line = out.substr(start, end - start);
    std::size_t at = 0;
    bool all = true;
    for (const std::string& p : parts) {
      at = line.find(p, at);
      if (at == std::string::npos) {
        all = false;
        break;
      }
      at += p.size();
    }
    if (all) return true;
    start = end + 1;
  }
  return false;
}

class Misuse : public weft::test::TempDirTest {
 protected:
  Output run(const std::string& args, const std::string& which) {
    return sh("cd " + dir_.string() + " && " + weft() + " run " + args + " -- " + kBin +
              "/cli_api_misuse " + which);
  }
  // The case under dfs and random: one api-misuse bug whose message says `message`.
  nlohmann::json expect_misuse(const std::string& which, const std::string& message) {
    nlohmann::json last;
    for (const std::string strategy : {"dfs", "random"}) {
      SCOPED_TRACE(which + " under " + strategy);
      Output o = run("--json - --jobs 1 -n 2000 -s " + strategy, which + " 2>/dev/null");
      EXPECT_EQ(o.status, 1) << o.out;
      last = nlohmann::json::parse(o.out, nullptr, false);
      if (last.is_discarded() || last["bugs"].empty()) {
        ADD_FAILURE() << o.out;
        continue;
      }
      const nlohmann::json& bug = last["bugs"][0];
      EXPECT_EQ(bug.value("kind", ""), "api-misuse") << bug.dump(1);
      EXPECT_NE(bug.value("message", "").find(message), std::string::npos) << bug.dump(1);
      EXPECT_TRUE(bug.contains("misuse")) << bug.dump(1);
      EXPECT_EQ(bug["location"].value("file", "").find("/src/"), std::string::npos)
          << "the caller's frame, not weft's: " << bug.dump(1);
    }
    return last;
  }
  void expect_correct(const std::string& which) {
    for (const std::string strategy : {"dfs", "random"}) {
      SCOPED_TRACE(which + " under " + strategy);
      Output o = run("--jobs 1 -n 2000 -s " + strategy, which);
      EXPECT_EQ(o.status, 0) << o.out;
      EXPECT_FALSE(o.has("api-misuse")) << o.out;
    }
  }
};

TEST_F(Misuse, UnlockByAThreadThatDoesNotHoldIt) {
  const nlohmann::json r = expect_misuse("unlock_not_owner", "pthread_mutex_unlock of a mutex that T0 holds");
  const nlohmann::json& m = r["bugs"][0]["misuse"];
  EXPECT_EQ(m.value("object_kind", ""), "mutex");
  EXPECT_EQ(m.value("object_name", ""), "heap#1") << m.dump(1);
  ASSERT_FALSE(m["history"].empty()) << m.dump(1);
  EXPECT_EQ(m["history"].back().value("event", ""), "locked") << m.dump(1);
  EXPECT_EQ(m["history"].back()["location"].value("line", 0), line_of("MAIN-LOCKS")) << m.dump(1);
  // std::mutex: the same undefined behaviour.
  expect_misuse("std_unlock_not_owner", "pthread_mutex_unlock of a mutex that T0 holds");
  // The text report: the call at the caller's line, and the history with the allocation.
  Output o = run("-s dfs --jobs 1", "unlock_not_owner");
  EXPECT_TRUE(line_has(o.out, {"bug: api-misuse: pthread_mutex_unlock of a mutex that T0 holds -- T1 at ",
                               at("OTHER-UNLOCKS")}))
      << o.out;
  EXPECT_TRUE(line_has(o.out, {"mutex heap#1 (allocated at ", at("MUTEX-ALLOC"), "): locked by T0 at ",
                               at("MAIN-LOCKS"), " (step 2)"}))
      << o.out;
}

TEST_F(Misuse, UnlockOfAnUnlockedMutex) {
  expect_misuse("unlock_unlocked", "pthread_mutex_unlock of a mutex that is not locked");
}

TEST_F(Misuse, DestroyOfALockedMutex) {
  const nlohmann::json r = expect_misuse("destroy_locked", "pthread_mutex_destroy of a mutex that T1 holds");
  EXPECT_EQ(r["bugs"][0]["location"].value("line", 0), line_of("DESTROY-LOCKED")) << r.dump(1);
}

TEST_F(Misuse, UseOfADestroyedMutex) {
  const nlohmann::json r = expect_misuse("lock_destroyed", "pthread_mutex_lock of a destroyed mutex");
  const nlohmann::json& history = r["bugs"][0]["misuse"]["history"];
  ASSERT_FALSE(history.empty()) << r.dump(1);
  EXPECT_EQ(history.front().value("event", ""), "destroyed") << history.dump(1);
  EXPECT_EQ(history.front()["location"].value("line", 0), line_of("DESTROY-FIRST")) << history.dump(1);
  EXPECT_EQ(history.front().value("thread", -1), 0) << history.dump(1);
  expect_misuse("destroy_twice", "pthread_mutex_destroy of a destroyed mutex");
  Output o = run("-s dfs --jobs 1 --html " + (dir_ / "bug.html").string(), "lock_destroyed");
  EXPECT_TRUE(line_has(o.out, {"mutex heap#1 (allocated at ", "destroyed by T0 at ", at("DESTROY-FIRST"),
                               " after step 1"}))
      << o.out;
  std::ifstream html(dir_ / "bug.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(line_has(page, {"mutex <code>heap#1</code>:<br>destroyed by T0 at ", at("DESTROY-FIRST")}))
      << page;
}

TEST_F(Misuse, DestroyOfAConditionVariableWithAWaiter) {
  const nlohmann::json r =
      expect_misuse("cond_destroy_waiters", "pthread_cond_destroy of a condition variable that T1 waits on");
  const nlohmann::json& bug = r["bugs"][0];
  EXPECT_EQ(bug["location"].value("line", 0), line_of("COND-DESTROY")) << bug.dump(1);
  ASSERT_EQ(bug["blocked"].size(), 1u) << bug.dump(1);
  EXPECT_EQ(bug["blocked"][0].value("thread", -1), 1) << bug.dump(1);
  const nlohmann::json& history = bug["misuse"]["history"];
  ASSERT_FALSE(history.empty()) << bug.dump(1);
  EXPECT_EQ(history.back().value("event", ""), "waited on") << history.dump(1);
  EXPECT_EQ(history.back()["location"].value("line", 0), line_of("COND-WAIT")) << history.dump(1);
}

TEST_F(Misuse, DestroyOfASemaphoreOrBarrierWithAWaiter) {
  const nlohmann::json s = expect_misuse("sem_destroy_waiters", "sem_destroy of a semaphore that T1 waits on");
  EXPECT_EQ(s["bugs"][0]["location"].value("line", 0), line_of("SEM-DESTROY")) << s.dump(1);
  const nlohmann::json b =
      expect_misuse("barrier_destroy_waiters", "pthread_barrier_destroy of a barrier that T1 waits on");
  EXPECT_EQ(b["bugs"][0]["location"].value("line", 0), line_of("BARRIER-DESTROY")) << b.dump(1);
}

TEST_F(Misuse, AWaitWithAMutexTheCallerDoesNotHold) {
  const nlohmann::json r = expect_misuse("cond_wait_unheld", "pthread_cond_wait with a mutex that is not locked");
  EXPECT_EQ(r["bugs"][0]["location"].value("line", 0), line_of("COND-WAIT-UNHELD")) << r.dump(1);
}

TEST_F(Misuse, ReadWriteLockMisuse) {
  const nlohmann::json r =
      expect_misuse("rwlock_unlock_not_owner", "pthread_rwlock_unlock of a read-write lock that T0 holds for writing");
  const nlohmann::json& m = r["bugs"][0]["misuse"];
  EXPECT_EQ(m.value("object_kind", ""), "read-write lock") << m.dump(1);
  ASSERT_FALSE(m["history"].empty()) << m.dump(1);
  EXPECT_EQ(m["history"].back().value("event", ""), "write-locked") << m.dump(1);
  EXPECT_EQ(m["history"].back()["location"].value("line", 0), line_of("MAIN-WRLOCKS")) << m.dump(1);
  EXPECT_EQ(r["bugs"][0]["location"].value("line", 0), line_of("OTHER-RWUNLOCKS")) << r.dump(1);
  expect_misuse("rwlock_unlock_unlocked", "pthread_rwlock_unlock of a read-write lock that is not locked");
  const nlohmann::json d =
      expect_misuse("rwlock_destroy_held", "pthread_rwlock_destroy of a read-write lock that T1 holds for reading");
  EXPECT_EQ(d["bugs"][0]["location"].value("line", 0), line_of("RWLOCK-DESTROY")) << d.dump(1);
}

// A fault in weft's read of a program's mutex (its memory unmapped) is a crash at the
// program's call, not in weft's source.
TEST_F(Misuse, AFaultReadingTheProgramsMutexIsAtTheProgramsCall) {
  Output o = run("--json - --jobs 1 -s dfs", "lock_unmapped 2>/dev/null");
  EXPECT_EQ(o.status, 1) << o.out;
  const nlohmann::json r = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << o.out;
  ASSERT_FALSE(r["bugs"].empty()) << o.out;
  const nlohmann::json& bug = r["bugs"][0];
  EXPECT_EQ(bug.value("kind", ""), "crash") << bug.dump(1);
  EXPECT_EQ(bug["location"].value("line", 0), line_of("LOCK-UNMAPPED")) << bug.dump(1);
  EXPECT_NE(bug["location"].value("file", "").find("api_misuse.cpp"), std::string::npos) << bug.dump(1);
}

// What POSIX defines, and initialisation without pthread_mutex_init, is never misuse.
TEST_F(Misuse, CorrectTwinsAreNeverReported) {
  for (const std::string which :
       {"errorcheck_not_owner", "recursive_twice", "static_and_std", "destroy_after_join",
        "reinitialised", "cond_broadcast_destroy", "sem_post_join_destroy", "barrier_wait_destroy",
        "errorcheck_cond_wait_unheld", "rwlock_correct"})
    expect_correct(which);
}

}  // namespace
