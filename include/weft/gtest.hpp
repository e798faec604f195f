#pragma once
// WEFT_TEST: a GoogleTest test whose body weft explores.
//
//   #include <weft/gtest.hpp>
//
//   WEFT_TEST(Counter, TwoIncrements) {        // strategy random, 1000 executions, seed 0
//     int counter = 0;
//     std::thread a([&] { counter++; }), b([&] { counter++; });
//     a.join(); b.join();
//     EXPECT_EQ(counter, 2);                   // or WEFT_ASSERT(counter == 2)
//   }
//
//   WEFT_TEST_OPTIONS(Counter, Exhaustive, {.strategy = "dfs", .executions = 0}) { ... }
//
// The body runs again and again under weft::explore (weft/weft.hpp), its threads one at a
// time. A failed WEFT_ASSERT, gtest check (EXPECT_*, ASSERT_*, ADD_FAILURE) in any of its
// threads, crash, deadlock, ... fails the test with weft's text report and the command
// that replays that very execution:
//
//   WEFT_REPLAY='weft3.<...>' /path/to/test_binary --gtest_filter=Counter.TwoIncrements
//
// WEFT_REPLAY holds a schedule, or names a file whose first line is one; a WEFT_TEST whose
// name the schedule was not recorded on is skipped. The schedule records the Options that
// shaped its execution (races, preempt_on, max_steps, ...), and the replay runs with them. After a
// change to the code the execution may no longer follow the schedule (a fix usually makes it go on
// past the bug's step): the test then fails saying where, and a run without WEFT_REPLAY explores
// the new code.
//
// WEFT_STRATEGY, WEFT_EXECUTIONS, WEFT_TIME and WEFT_SEED override the options (see
// weft/environment.hpp); a bad value fails the test naming the variable. WEFT_CHECKPOINT
// (a directory) makes each test's search resumable: saved to <dir>/Suite.Name.weft-checkpoint
// as it goes, resumed from it by the next run.
//
// Sharding (docs/sharding.md): run as shard I of N (GTEST_SHARD_INDEX=I,
// GTEST_TOTAL_SHARDS=N, or WEFT_SHARD=I/N, which wins), every WEFT_TEST explores shard I/N
// of its own search, so that the N processes together run each search once. gtest would
// instead hand out whole tests to the shards; the first WEFT_TEST to register (before
// main) takes the two GTEST_ variables away from it, so that every test, plain TESTs
// too, runs in every shard. It touches TEST_SHARD_STATUS_FILE and GTEST_SHARD_STATUS_FILE
// when set (Bazel's sign that the test shards). A passing test says which shard it ran
// and what that covered, and records weft_executions, weft_complete, weft_shard,
// weft_strategy, weft_seed and weft_coverage as test properties (--gtest_output=json or
// xml).
//
// Options::name defaults to "Suite.Name" (schedules name the test they were found on).
// The body is a plain function: no fixture (TEST_F) members.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "weft/environment.hpp"
#include "weft/weft.hpp"

namespace weft::gtest {

// While alive, a gtest failure in an explored body, in any of its threads, ends that
// execution as a weft bug with gtest's message. Without it the failure would be recorded
// only in the exploration's forked child, which the test's gtest never hears of, and the
// test would pass. WEFT_TEST holds one; hold one around weft::explore in a plain TEST.
// Results outside an execution (the test's own checks) are passed on to gtest when it ends.
class FailuresAsBugs {
 public:
  FailuresAsBugs() { scope_.emplace(&outside_); }
  ~FailuresAsBugs() {
    scope_.reset();  // gtest's own reporter again
    for (int i = 0; i < outside_.size(); ++i) {
      const ::testing::TestPartResult& f = outside_.GetTestPartResult(i);
      // What ADD_FAILURE_AT expands to, with the result's own type (fatal, skip, ...).
      GTEST_MESSAGE_AT_(f.file_name(), f.line_number(), f.message(), f.type());
    }
  }
  FailuresAsBugs(const FailuresAsBugs&) = delete;
  FailuresAsBugs& operator=(const FailuresAsBugs&) = delete;

 private:
  class Scope : public ::testing::ScopedFakeTestPartResultReporter {
   public:
    explicit Scope(::testing::TestPartResultArray* outside)
        : ScopedFakeTestPartResultReporter(INTERCEPT_ALL_THREADS, outside) {}
    // Not instrumented: its steps would only lengthen the bug's interleaving.
    __attribute__((no_sanitize("thread"))) void ReportTestPartResult(
        const ::testing::TestPartResult& result) override {
      if (result.failed())  // returns only outside an execution
        ::weft::detail::check_failed(result.message(), result.file_name(), result.line_number());
      ScopedFakeTestPartResultReporter::ReportTestPartResult(result);
    }
  };
  ::testing::TestPartResultArray outside_;
  std::optional<Scope> scope_;
};

namespace detail {

inline std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "<the test binary>";
}

// A schedule starts weft<version>.<fingerprint of the test's name>.
inline bool recorded_on(const std::string& schedule, const std::string& name) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(::weft::detail::fingerprint("", name)));
  const std::size_t dot = schedule.find('.');
  return dot != std::string::npos && schedule.compare(dot + 1, 17, std::string(hex) + ".") == 0;
}

// WEFT_REPLAY's schedule: the value itself, or the first line of the file it names.
inline std::string replay_schedule(const std::string& value, std::string* error) {
  for (const char* version : {"weft1.", "weft2.", "weft3."})
    if (value.rfind(version, 0) == 0) return value;
  std::string line, why;
  const bool read = ::weft::detail::read_schedule_line(value, &line, &why);
  if (!why.empty()) {
    *error = "WEFT_REPLAY='" + value + "' names a file that " + why;
    return "";
  }
  if (!read || line.empty()) {
    *error =
        "WEFT_REPLAY='" + value +
        "' is neither a schedule (weft3...., or weft1 or weft2) nor a readable file holding one";
    return "";
  }
  return line;
}

// Which shard of their searches this binary's WEFT_TESTs explore.
struct Sharding {
  std::string shard;   // "I/N", or "" for the whole search
  std::string source;  // the variables it came from, for the test's output
  std::string error;   // a bad value: every WEFT_TEST fails with it
};

// GTEST_ or WEFT_SHARD's index and count; "" or one line naming what is wrong.
inline std::string shard_numbers(const char* index_name, const std::string& index,
                                 const char* count_name, const std::string& count, std::uint64_t* i,
                                 std::uint64_t* n) {
  using ::weft::detail::env_error;
  // At most what weft run and weft merge take, in their words.
  if (!::weft::detail::parse_whole(count, n) || *n == 0 || *n > ::weft::detail::kMaxShards)
    return env_error(count_name, count, std::string("give ") + ::weft::detail::kShardsAccepted);
  if (!::weft::detail::parse_whole(index, i) || *i >= *n)
    return env_error(index_name, index,
                     "give this shard's number, a whole number from 0 to " +
                         std::to_string(*n - 1) + " (" + count_name + "=" + count + ")");
  return "";
}

// Reads and removes GoogleTest's sharding variables (see the top of this file).
inline Sharding take_sharding() {
  Sharding s;
  auto get = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v == nullptr ? std::nullopt : std::optional<std::string>(v);
  };
  const auto index = get("GTEST_SHARD_INDEX"), total = get("GTEST_TOTAL_SHARDS");
  const auto weft = get("WEFT_SHARD");
  // gtest must not hand out whole tests: each WEFT_TEST splits its own search.
  unsetenv("GTEST_SHARD_INDEX");
  unsetenv("GTEST_TOTAL_SHARDS");
  std::uint64_t i = 0, n = 1;
  if (weft) {
    const std::size_t slash = weft->find('/');
    if (slash == std::string::npos || !shard_numbers("WEFT_SHARD", weft->substr(0, slash),
                                                     "WEFT_SHARD", weft->substr(slash + 1), &i, &n)
                                           .empty()) {
      s.error = ::weft::detail::env_error(
          "WEFT_SHARD", *weft, "give I/N, shard I of N with 0 <= I < N (such as 0/4), or unset it");
      return s;
    }
    s.source = "WEFT_SHARD";
    if (index || total) s.source += "; GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS ignored";
  } else if (index || total) {
    if (!index || !total) {
      s.error = std::string(index ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS") + " is set but " +
                (index ? "GTEST_TOTAL_SHARDS" : "GTEST_SHARD_INDEX") +
                " is not: set both, GTEST_SHARD_INDEX=I and GTEST_TOTAL_SHARDS=N with 0 <= I < N";
      return s;
    }
    s.error = shard_numbers("GTEST_SHARD_INDEX", *index, "GTEST_TOTAL_SHARDS", *total, &i, &n);
    if (!s.error.empty()) return s;
    s.source = "GTEST_SHARD_INDEX=" + *index + ", GTEST_TOTAL_SHARDS=" + *total;
  }
  if (n > 1) {
    s.shard = std::to_string(i) + "/" + std::to_string(n);
    for (const char* file : {"TEST_SHARD_STATUS_FILE", "GTEST_SHARD_STATUS_FILE"})
      if (const auto path = get(file); path && !path->empty()) std::ofstream(*path, std::ios::app);
  }
  return s;
}

// Taken once, when the first WEFT_TEST registers: before main, so before gtest reads them.
inline const Sharding& sharding() {
  static const Sharding s = take_sharding();
  return s;
}

// A longer schedule is named by its file in the replay command: a shell cannot hand a
// program an environment string of more than 128 KiB (E2BIG), and nobody copies one.
inline constexpr std::size_t kInlineScheduleBytes = 4096;

// The report, its replay line made the command that replays the bug in this binary;
// `file`: one holding the schedule ("" none).
inline std::string with_replay_command(std::string report, const std::string& test,
                                       const std::string& schedule, const std::string& file = "") {
  const std::string value =
      schedule.size() > kInlineScheduleBytes && !file.empty() ? file : "'" + schedule + "'";
  const std::string command =
      "replay: WEFT_REPLAY=" + value + " " + self_path() + " --gtest_filter=" + test;
  const std::size_t at = report.find("\nreplay: ");
  if (at == std::string::npos) return report + command + "\n";
  const std::size_t end = report.find('\n', at + 1);
  report.replace(at + 1, end == std::string::npos ? std::string::npos : end - at - 1, command);
  return report;
}

// A failing test's schedule, in a file of its own: <test>.weft-schedule in
// $WEFT_FAILURE_DIR, else in weft-failures/ beside the test binary (CI keeps it as an
// artifact; WEFT_REPLAY=<the file> replays it). The line the failure message ends with.
inline std::filesystem::path failure_path(const std::string& test) {
  namespace fs = std::filesystem;
  const char* chosen = std::getenv("WEFT_FAILURE_DIR");
  const fs::path dir = chosen != nullptr && *chosen != '\0'
                           ? fs::path(chosen)
                           : fs::path(self_path()).parent_path() / "weft-failures";
  return dir / (test + ".weft-schedule");
}

inline std::string failure_file(const std::string& test, const std::string& schedule) {
  namespace fs = std::filesystem;
  const char* chosen = std::getenv("WEFT_FAILURE_DIR");
  const fs::path file = failure_path(test);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::trunc);
  out << schedule << "\n";
  out.close();
  if (!out)
    return "weft: cannot write the schedule to " + file.string() +
           (chosen != nullptr && *chosen != '\0' ? " (WEFT_FAILURE_DIR)"
                                                 : " (set WEFT_FAILURE_DIR)");
  return "schedule written to " + file.string() + "; replay it with: WEFT_REPLAY=" + file.string() +
         " " + self_path() + " --gtest_filter=" + test;
}

}  // namespace detail

// What WEFT_TEST runs: explores `body` (or replays WEFT_REPLAY) and reports to gtest.
inline void run_test(void (*body)(), const char* test, Options options, const char* file,
                     int line) {
  if (options.name.empty()) options.name = test;
  if (std::string e = apply_environment(options); !e.empty()) {
    ADD_FAILURE_AT(file, line) << "weft: " << e;
    return;
  }
  const detail::Sharding& sharding = detail::sharding();
  if (!sharding.error.empty()) {
    ADD_FAILURE_AT(file, line) << "weft: " << sharding.error;
    return;
  }
  if (!sharding.shard.empty()) options.shard = sharding.shard;
  std::string schedule;
  if (const char* value = std::getenv("WEFT_REPLAY"); value != nullptr && *value != '\0') {
    std::string error;
    schedule = detail::replay_schedule(value, &error);
    if (!error.empty()) {
      ADD_FAILURE_AT(file, line) << "weft: " << error;
      return;
    }
    if (!detail::recorded_on(schedule, options.name))
      GTEST_SKIP() << "weft: WEFT_REPLAY holds a schedule of another test";
  }

  const Result result = [&] {
    FailuresAsBugs checks;
    return schedule.empty() ? explore(body, options) : replay(body, schedule, options);
  }();

  if (!result.error().empty() && !schedule.empty() && result.executions() == 0) {
    ADD_FAILURE_AT(file, line) << "weft: WEFT_REPLAY: " << result.error();
  } else if (!result.error().empty() && !schedule.empty()) {
    ADD_FAILURE_AT(file, line) << "weft: " << result.error()
                               << "\nweft: the code no longer follows "
                               << "WEFT_REPLAY's schedule; unset WEFT_REPLAY to explore it again";
  } else if (!result.error().empty()) {
    ADD_FAILURE_AT(file, line) << "weft: " << result.error();
  } else if (result.failed()) {
    const std::string& found = result.bugs()[0].schedule();
    // Written first: a long schedule's replay command names the file.
    const std::string saved = schedule.empty() ? detail::failure_file(test, found) + "\n" : "";
    const char* given = std::getenv("WEFT_REPLAY");
    const std::string replay_file = schedule.empty()    ? detail::failure_path(test).string()
                                    : schedule != given ? std::string(given)
                                                        : std::string();
    ADD_FAILURE_AT(file, line) << (schedule.empty() ? "weft found a bug:\n"
                                                    : "weft: WEFT_REPLAY reproduces the bug:\n")
                               << detail::with_replay_command(result.report(), test, found,
                                                              replay_file)
                               << saved;
  } else if (!schedule.empty()) {
    std::cout << "[   weft   ] " << test
              << ": WEFT_REPLAY's schedule ran to its end without a bug\n";
  } else {
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.2f", result.elapsed_s());
    std::cout << "[   weft   ] " << test << ": "
              << (options.shard.empty()
                      ? ""
                      : "shard " + options.shard + " (" +
                            (sharding.source.empty() ? "the test's options" : sharding.source) +
                            "): ")
              << "no bug in " << result.executions() << " executions (strategy "
              << result.strategy() << ", seed " << result.seed() << ", " << elapsed << " s); "
              << result.coverage() << "\n";
  }
  // For machines (--gtest_output): what this search, or this shard of it, ran.
  if (schedule.empty() && result.error().empty()) {
    ::testing::Test::RecordProperty("weft_executions", std::to_string(result.executions()));
    ::testing::Test::RecordProperty("weft_complete", result.complete() ? "true" : "false");
    ::testing::Test::RecordProperty("weft_shard", options.shard.empty() ? "0/1" : options.shard);
    ::testing::Test::RecordProperty("weft_strategy", result.strategy());
    ::testing::Test::RecordProperty("weft_seed", std::to_string(result.seed()));
    ::testing::Test::RecordProperty("weft_coverage", result.coverage());
  }
}

}  // namespace weft::gtest

#define WEFT_TEST(Suite, Name) WEFT_TEST_OPTIONS(Suite, Name, ::weft::Options{})

// The options: an expression or a braced list, such as {.strategy = "pct:3", .seed = 7}
// (g++ 12's -Wextra would warn that a designated list leaves members out: that is its use).
#define WEFT_TEST_OPTIONS(Suite, Name, ...)                                                       \
  static void WEFT_TEST_BODY_(Suite, Name)();                                                     \
  [[maybe_unused]] static const ::weft::gtest::detail::Sharding& WEFT_TEST_SHARDING_(             \
      Suite, Name) = ::weft::gtest::detail::sharding();                                           \
  TEST(Suite, Name) {                                                                             \
    _Pragma("GCC diagnostic push") _Pragma(                                                       \
        "GCC diagnostic ignored \"-Wmissing-field-initializers\"")::weft::Options weft_options_ = \
        __VA_ARGS__;                                                                              \
    _Pragma("GCC diagnostic pop")::weft::gtest::run_test(                                         \
        &WEFT_TEST_BODY_(Suite, Name), #Suite "." #Name, std::move(weft_options_), __FILE__,      \
        __LINE__);                                                                                \
  }                                                                                               \
  static void WEFT_TEST_BODY_(Suite, Name)()

#define WEFT_TEST_BODY_(Suite, Name) weft_test_body_##Suite##_##Name
#define WEFT_TEST_SHARDING_(Suite, Name) weft_test_sharding_##Suite##_##Name
