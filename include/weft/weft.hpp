#pragma once
// weft: systematic concurrency testing for C and C++.
//
//   weft::Result r = weft::explore([] { ...threads, locks, atomics... },
//                                  {.strategy = "random", .executions = 10000, .seed = 1});
//   if (!r.ok()) std::cout << r.report();
//   weft::replay(body, r.bugs()[0].schedule());   // the same execution, every time
//
// The body runs again and again, each time under a schedule the strategy chooses; only
// one of its threads runs at a time. Each exploration runs in a forked child process, so a
// crash is reported rather than fatal.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "weft/bug_kind.hpp"

namespace weft {

// Data race detection over instrumented plain accesses (happens-before, every execution).
enum class Races {
  kOff,
  kReport,  // each race (pair of locations) listed in Result::races(); not a failure
  kFail,    // a race is a bug of kind data-race (undefined behaviour in C and C++)
};
// Which instrumented plain accesses are scheduling points besides synchronisation.
enum class PreemptOn {
  kSync,  // none
  kRacy,  // those found racing in earlier executions (needs race detection on)
  kAll,   // every one
};

struct Options {
  std::string strategy = "random";  // see weft::strategies()
  std::uint64_t executions = 1000;  // budget; 0 = no limit (until complete or time)
  std::uint64_t seed = 0;
  double time_limit_s = 0;           // budget in seconds; 0 = no limit
  std::uint64_t max_steps = 100000;  // an execution longer than this is a livelock
  double hang_timeout_s = 10;        // a thread stuck outside weft this long is a hang
  std::string name;                  // names the test in schedules (default: the body's type)
  bool real_time = false;            // clocks read real time (default: virtual, see README)
  bool fair = true;                  // fair scheduling: a yielding or spinning thread waits
                                     // for the others (CHESS 4.3)
  // The API's defaults keep every instrumented access a scheduling point and races
  // unchecked, so that a test body may race on purpose (a lost update it asserts on);
  // `weft run` defaults to kFail and kRacy. A schedule records them (see replay()).
  Races races = Races::kOff;
  PreemptOn preempt_on = PreemptOn::kAll;
  // A timed wait times out when nothing else can run; with this, also as a choice while
  // others can (explores timeouts shorter than what the other threads do).
  bool explore_timeouts = false;
  // Condition variable and futex waits may also wake spuriously, as a choice.
  bool spurious_wakeups = false;
  // dfs, pb and db skip branches whose happens-before state they explored already (CHESS
  // state caching); false: every schedule runs.
  bool state_cache = true;
  // "pb:<c>": dfs and bf explore only executions with at most c preemptions ("": none).
  std::string bound;
  // "I/N": explore only shard I of N of the search (0 <= I < N; docs/sharding.md), so that
  // N processes together run it once: samplers the executions numbered I, I+N, ... below
  // `executions`, systematic strategies disjoint subtrees (without state caching). "": the
  // whole search. WEFT_TEST sets it from GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS or WEFT_SHARD.
  std::string shard;
  // A file the search is saved to (every checkpoint_every_s seconds and when it ends) and
  // resumed from when it exists, its counts going on from the saved ones (README,
  // Resumable searches): dfs, pb, db, dpor, bf, vb, random, pct and pos. A checkpoint of
  // another test or other options is refused. "": none. WEFT_CHECKPOINT sets it.
  std::string checkpoint;
  double checkpoint_every_s = 60;  // from 0.001 to 86400
  // The first bug is reported with the simplest schedule found for it within a budget
  // (at most 2000 more executions or 10 s): its schedule simplified, then every schedule
  // with fewer preemptions tried, fewest first (GAMBIT: the preemptions point at the root
  // cause). false: the schedule as the strategy found it. WEFT_MINIMIZE=0 for WEFT_TEST.
  bool minimize = true;
};

// One step of a bug's interleaving, symbolized.
struct Step {
  std::uint64_t step = 0;
  std::uint32_t thread = 0;
  std::string op;  // "mutex-lock", "write", ...
  std::uintptr_t object = 0;
  std::size_t size = 0;     // bytes, for memory accesses
  bool preemption = false;  // another thread could have continued here
  std::string function;     // demangled, "" when unknown
  std::string file;         // "" when unknown
  int line = 0;
};

namespace detail {
struct BugData;
struct ResultData;
}  // namespace detail

class Bug {
 public:
  BugKind kind() const;
  const std::string& message() const;
  const std::string& schedule() const;  // pass to weft::replay
  std::uint64_t execution() const;      // which execution found it (1-based)
  std::size_t preemptions() const;
  std::size_t steps() const;
  std::vector<Step> trace() const;  // symbolized on demand

  explicit Bug(std::shared_ptr<const detail::BugData> d) : d_(std::move(d)) {}
  const detail::BugData& data() const { return *d_; }

 private:
  std::shared_ptr<const detail::BugData> d_;
};

class Result {
 public:
  bool ok() const;      // no bug and no tool error
  bool failed() const;  // a bug was found (what replay() of a buggy schedule returns)
  const std::vector<Bug>& bugs() const;
  const std::string& error() const;  // tool error: bad option, divergent replay ("" if none)
  std::uint64_t executions() const;
  double elapsed_s() const;
  bool complete() const;      // the strategy exhausted its space
  bool instrumented() const;  // plain memory accesses were scheduling points
  // With Races::kReport: each data race found (a pair of locations) once; not failures.
  const std::vector<Bug>& races() const;
  const std::string& strategy() const;
  std::uint64_t seed() const;
  std::string coverage() const;  // one line: what was covered
  std::string report() const;    // the text report (bugs with their interleavings; of a
                                 // longer one than 1000 steps the last 1000: Bug::trace())
  std::string json() const;      // the same facts for machines

  explicit Result(std::shared_ptr<const detail::ResultData> d);
  const detail::ResultData& data() const { return *d_; }

 private:
  std::shared_ptr<const detail::ResultData> d_;
  std::vector<Bug> bugs_;
  std::vector<Bug> races_;
};

// Every strategy name with one line on what it does.
std::string strategies();
// "" when `spec` names a strategy ("pct:3"); otherwise one line on what is wrong and
// what is accepted.
std::string check_strategy(const std::string& spec);

namespace detail {
Result explore(std::function<void()> body, std::uint64_t fingerprint, const Options& options);
Result replay(std::function<void()> body, std::uint64_t fingerprint, const std::string& schedule,
              const Options& options);
std::uint64_t fingerprint(const char* type_name, const std::string& name);
[[noreturn]] void assert_failed(const char* expr, const char* file, int line, const char* func);
// Another framework's check (a gtest EXPECT_*) failed: inside an execution, reported like
// a failed WEFT_ASSERT with the framework's message (never returns); outside one, returns
// so that the framework reports it itself.
void check_failed(const std::string& message, const char* file, int line);
}  // namespace detail

template <typename F>
Result explore(F&& body, const Options& options = {}) {
  return detail::explore(std::function<void()>(std::forward<F>(body)),
                         detail::fingerprint(typeid(std::decay_t<F>).name(), options.name),
                         options);
}

// Runs exactly the execution `schedule` describes (from Bug::schedule()). A schedule
// records the options that shaped its execution (races, preempt_on, max_steps, real_time,
// fair, explore_timeouts, spurious_wakeups) and is replayed under them, whatever `options`
// says of them; `options.name` must be the one it was found with.
template <typename F>
Result replay(F&& body, const std::string& schedule, const Options& options = {}) {
  return detail::replay(std::function<void()>(std::forward<F>(body)),
                        detail::fingerprint(typeid(std::decay_t<F>).name(), options.name), schedule,
                        options);
}

}  // namespace weft

// Like assert(), but a failure is reported by weft with the interleaving that caused it.
#define WEFT_ASSERT(cond)        \
  ((cond) ? static_cast<void>(0) \
          : ::weft::detail::assert_failed(#cond, __FILE__, __LINE__, __func__))
