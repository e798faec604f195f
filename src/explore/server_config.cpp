#include "explore/server_config.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <type_traits>

#include "core/checkpoint.hpp"
#include "core/numbers.hpp"
#include "core/schedule.hpp"
#include "strategy/registry.hpp"
#include "weft/environment.hpp"

namespace weft::explorer {
namespace {

// A number weft run wrote into a WEFT_* variable, read as weft run read it from its
// command line (core/numbers.hpp); a bad one (the variables set by hand) is the run's
// error, not a default or a number rounded through a double.
template <typename Spec, typename T>
void take_number(const char* name, const Spec& spec, T* out, std::string* error) {
  const std::string text = take_env(name);
  if (text.empty()) return;
  std::conditional_t<std::is_same_v<Spec, Seconds>, double, std::uint64_t> v{};
  if (std::string e = read_number(text, spec, &v); !e.empty()) {
    if (error->empty()) *error = std::string(name) + "=" + e;
    return;
  }
  *out = static_cast<T>(v);
}

}  // namespace

std::string take_env(const char* name) {
  const char* v = std::getenv(name);
  std::string s = v == nullptr ? "" : v;
  unsetenv(name);
  return s;
}

void read_server_config(ServerConfig* config) {
  ServerConfig& c = *config;
  c.minimize = take_env("WEFT_MINIMIZE") != "0";
  c.progress = take_env("WEFT_PROGRESS") == "1" && isatty(STDERR_FILENO);
  c.result_dir = take_env("WEFT_RESULT_DIR");
  c.replay_command = take_env("WEFT_REPLAY_COMMAND");
  if (std::string x = take_env("WEFT_STRATEGY"); !x.empty()) c.strategy = x;
  std::string* bad = &c.number_error;
  take_number("WEFT_SEED", kSeedNumber, &c.seed, bad);
  take_number("WEFT_EXECUTIONS", kExecutionsNumber, &c.executions, bad);
  take_number("WEFT_TIME", kTimeSeconds, &c.time_s, bad);
  take_number("WEFT_STEPS", kStepsNumber, &c.steps, bad);
  take_number("WEFT_HANG_TIMEOUT", kHangTimeoutSeconds, &c.hang_timeout_s, bad);
  if (std::string x = take_env("WEFT_EXPECT_EXIT"); !x.empty())
    if (std::string e = ExpectedExit::parse(x, &c.expect_exit); !e.empty() && bad->empty())
      *bad = "WEFT_EXPECT_EXIT=" + e;
  c.fair = take_env("WEFT_FAIR") != "0";
  c.stdout_to_stderr = take_env("WEFT_STDOUT_TO_STDERR") == "1";
  c.colour = take_env("WEFT_COLOR") == "1";
  if (const std::string x = take_env("WEFT_COLUMNS");
      !x.empty() && x.size() <= 5 && x.find_first_not_of("0123456789") == std::string::npos)
    c.width = std::stoul(x);  // weft run checked it; 0: no limit
  c.keep_going = take_env("WEFT_KEEP_GOING") == "1";
  c.full_trace = take_env("WEFT_FULL_TRACE") == "1";
  c.check_output = take_env("WEFT_CHECK_OUTPUT");
  c.explore_timeouts = take_env("WEFT_EXPLORE_TIMEOUTS") == "1";
  c.spurious_wakeups = take_env("WEFT_SPURIOUS_WAKEUPS") == "1";
  c.state_cache = take_env("WEFT_STATE_CACHE") != "0";
  if (std::string x = take_env("WEFT_BOUND"); !x.empty())
    parse_bound_option(x, &c.bound, &c.bound_error);
  {
    std::stringstream patterns(take_env("WEFT_NO_PREEMPT_IN"));
    for (std::string p; std::getline(patterns, p, ',');)
      if (!p.empty()) c.no_preempt_in.push_back(p);
  }
  c.schedule = take_env("WEFT_SCHEDULE");
  if (std::getenv("WEFT_SCHEDULE_OPTIONS") != nullptr) {
    c.record_options = true;
    if (!decode_schedule_options(take_env("WEFT_SCHEDULE_OPTIONS"), &c.schedule_options) &&
        bad->empty())
      *bad = "WEFT_SCHEDULE_OPTIONS is malformed";
  }
  if (std::string file = take_env("WEFT_SCHEDULE_FILE"); !file.empty()) {
    std::string why;
    if ((!detail::read_schedule_line(file, &c.schedule, &why) || c.schedule.empty()) && bad->empty())
      *bad = "WEFT_SCHEDULE_FILE='" + file + "' " + (why.empty() ? "cannot be read" : why);
  }
  // Read by the runtime, as set: a bad value is the run's error, not a silent default.
  if (std::string e = detail::fibers_error(); !e.empty() && bad->empty()) *bad = e;
  if (const std::string x = take_env("WEFT_SHARD"); !x.empty()) {
    if (Shard s; Shard::parse(x, &s) && s.valid() && s.count <= Shard::kMaxCount)
      c.shard = s;
    else if (bad->empty())
      *bad = "WEFT_SHARD='" + x + "' is not valid: give I/N, shard I of N shards (0 <= I < N, " +
             "N " + kShardCountNumber.accepted + ")";
  }
  c.jobs_control = take_env("WEFT_JOBS_CONTROL");
  if (std::string f = take_env("WEFT_CLASS_LOG"); !f.empty()) {
    c.class_log = open(f.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (c.class_log < 0 && bad->empty()) *bad = "WEFT_CLASS_LOG='" + f + "': " + std::strerror(errno);
  }
  constexpr WholeNumber kWorker{0, kJobsNumber.hi - 1, "a worker's number from 0 to 255"};
  take_number("WEFT_JOBS_WORKER", kWorker, &c.jobs_worker, bad);
  take_number("WEFT_JOBS_WORKERS", kJobsNumber, &c.jobs_workers, bad);
  c.checkpoint = take_env("WEFT_CHECKPOINT");
  take_number("WEFT_CHECKPOINT_EVERY", kCheckpointEverySeconds, &c.checkpoint_every_s, bad);
  if (!decode_checkpoint_options(take_env("WEFT_CHECKPOINT_OPTIONS"), &c.checkpoint_options) &&
      bad->empty())
    *bad = "WEFT_CHECKPOINT_OPTIONS is malformed";
  if (std::string x = take_env("WEFT_RACES"); !x.empty()) {
    c.races = x;
    c.races_explicit = true;
  }
  if (std::string x = take_env("WEFT_PREEMPT_ON"); x == "sync")
    c.preempt_on = rt::PreemptOn::kSync;
  else if (x == "all")
    c.preempt_on = rt::PreemptOn::kAll;
}

}  // namespace weft::explorer
