#include "explore/exploration_config.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/checkpoint.hpp"
#include "core/file_text.hpp"
#include "core/schedule.hpp"
#include "report/text_width.hpp"
#include "strategy/registry.hpp"
#include "weft/environment.hpp"

namespace weft::explorer {
namespace {

static_assert(kDefaultColumns == kDefaultTextWidth, "one default width");

// The first problem only: the one the run reports.
void note(std::string* error, const std::string& problem) {
  if (error->empty()) *error = problem;
}

// What the server works out from the options once, into *c.
void derive(ExplorationConfig* c) {
  c->recorded_options = execution_options(*c);
  c->races_explicit = !c->races.empty();
  if (c->races.empty()) c->races = "fail";  // races fail a run, in instrumented programs
  c->replay = c->mode == "replay";
  c->minimize_only = c->mode == "minimize";
  c->progress = c->progress && isatty(STDERR_FILENO);
  if (!c->bound.empty()) parse_bound_option(c->bound, &c->preemption_bound, &c->bound_error);
  std::stringstream patterns(c->no_preempt_in);
  for (std::string p; std::getline(patterns, p, ',');)
    if (!p.empty()) c->no_preempt_patterns.push_back(p);
  c->preempt_mode = c->preempt_on == "sync"  ? rt::PreemptOn::kSync
                    : c->preempt_on == "all" ? rt::PreemptOn::kAll
                                             : rt::PreemptOn::kRacy;
  ExpectedExit::parse(c->expect_exit, &c->expected_exit);  // the reader checked it
  Shard::parse(c->run_shard, &c->shard);                   // likewise
  decode_checkpoint_options(c->checkpoint_options, &c->search_options);
  if (!c->schedule_in.empty()) {
    std::string why;
    if (!detail::read_schedule_line(c->schedule_in, &c->schedule, &why) || c->schedule.empty())
      note(&c->error,
           "the schedule file '" + c->schedule_in + "' " + (why.empty() ? "cannot be read" : why));
  }
}

}  // namespace

std::string take_env(const char* name) {
  const char* v = std::getenv(name);
  std::string s = v == nullptr ? "" : v;
  unsetenv(name);
  return s;
}

void read_server_config(const std::string& path, ExplorationConfig* config) {
  ExplorationConfig& c = *config;
  c.result_dir = std::filesystem::path(path).parent_path().string();
  std::string text;
  if (!read_file_text(path, &text))
    note(&c.error, "cannot read weft run's options from '" + path + "': " + std::strerror(errno));
  else if (std::string e = decode_run_config(text, &c); !e.empty())
    note(&c.error, "weft run's options (" + path + ") " + e);
  derive(&c);
  // Read by the runtime, as set: a bad value is the run's error, not a silent default.
  if (std::string e = detail::fibers_error(); !e.empty()) note(&c.error, e);
  if (std::string f = take_env("WEFT_CLASS_LOG"); !f.empty()) {
    c.class_log = open(f.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (c.class_log < 0) note(&c.error, "WEFT_CLASS_LOG='" + f + "': " + std::strerror(errno));
  }
}

}  // namespace weft::explorer
