// The public C++ API (include/weft/weft.hpp): explore, replay, Result, Bug.
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/schedule.hpp"
#include "explore/explorer.hpp"
#include "explore/in_process_minimizer.hpp"
#include "explore/recorded_options.hpp"
#include "report/json_report.hpp"
#include "report/symbolized_steps.hpp"
#include "report/symbolizer.hpp"
#include "report/text_report.hpp"
#include "runtime/controller.hpp"
#include "strategy/registry.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace detail {

// Symbolization is costly and only needed for reports: made on first use, shared by a
// result and its bugs.
struct LazySymbolizer {
  Symbolizer& get() {
    std::call_once(once, [this] { symbolizer = std::make_unique<Symbolizer>(); });
    return *symbolizer;
  }
  std::once_flag once;
  std::unique_ptr<Symbolizer> symbolizer;
};

struct BugData {
  BugRecord record;
  std::shared_ptr<LazySymbolizer> symbolizer;
};

struct ResultData {
  RunRecord record;
  std::shared_ptr<LazySymbolizer> symbolizer = std::make_shared<LazySymbolizer>();
};

std::uint64_t fingerprint(const char* type_name, const std::string& name) {
  return fnv1a64(name.empty() ? std::string_view(type_name) : std::string_view(name));
}

namespace {

Result make_result(RunRecord record) {
  auto data = std::make_shared<ResultData>();
  data->record = std::move(record);
  if (data->record.replay_hint.empty() && !data->record.bugs.empty())
    data->record.replay_hint = "weft::replay(<the same body>, bug.schedule())";
  // The reports show a long trace's last steps, as weft run's do; Bug::trace() has all.
  for (auto* bugs : {&data->record.bugs, &data->record.races})
    for (BugRecord& b : *bugs) b.show_last(kShownSteps);
  return Result(data);
}

}  // namespace

Result explore(std::function<void()> body, std::uint64_t fp, const Options& options) {
  RunRecord run = explorer::run_in_process(body, fp, options, nullptr);
  if (options.minimize)
    explorer::minimize_first_bug(body, fp, options, explorer::MinimizeBudget{}, &run);
  return make_result(std::move(run));
}

Result replay(std::function<void()> body, std::uint64_t fp, const std::string& schedule,
              const Options& options) {
  Schedule s;
  std::string error;
  // A weft3 schedule replays under the options it records, whatever `options` says of them.
  Options used = options;
  if (!decode_schedule(schedule, &s, &error,
                       max_decisions_for(recorded_step_bound(schedule, options.max_steps))) ||
      (s.records_options &&
       !(error = explorer::apply_recorded_options(s.options, &used)).empty())) {
    RunRecord r;
    r.error = error;
    return make_result(std::move(r));
  }
  return make_result(explorer::run_in_process(body, fp, used, &s));
}

void assert_failed(const char* expr, const char* file, int line, const char* func) {
  if (rt::ThreadState* self = rt::controlled_thread()) {
    rt::RuntimeScope scope(self);
    std::string msg = std::string("WEFT_ASSERT(") + expr + ") failed";
    rt::BugReport bug;
    bug.kind = BugKind::kAssertion;
    bug.message = msg;
    bug.thread = self->id;
    bug.pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    bug.file = file;
    bug.line = line;
    rt::Controller::active()->fail(bug);
  }
  std::fprintf(stderr, "%s:%d: %s: WEFT_ASSERT(%s) failed\n", file, line, func, expr);
  std::abort();
}

}  // namespace detail

BugKind Bug::kind() const { return d_->record.kind; }
const std::string& Bug::message() const { return d_->record.message; }
const std::string& Bug::schedule() const { return d_->record.schedule; }
std::uint64_t Bug::execution() const { return d_->record.execution; }
std::size_t Bug::preemptions() const { return d_->record.preemptions(); }
std::size_t Bug::steps() const { return d_->record.events.size(); }
std::vector<Step> Bug::trace() const { return symbolize_steps(d_->record, d_->symbolizer->get()); }

Result::Result(std::shared_ptr<const detail::ResultData> d) : d_(std::move(d)) {
  for (const BugRecord& b : d_->record.bugs)
    bugs_.emplace_back(std::make_shared<detail::BugData>(detail::BugData{b, d_->symbolizer}));
  for (const BugRecord& b : d_->record.races)
    races_.emplace_back(std::make_shared<detail::BugData>(detail::BugData{b, d_->symbolizer}));
}
bool Result::ok() const { return d_->record.bugs.empty() && d_->record.error.empty(); }
bool Result::failed() const { return !d_->record.bugs.empty(); }
const std::vector<Bug>& Result::bugs() const { return bugs_; }
const std::vector<Bug>& Result::races() const { return races_; }
const std::string& Result::error() const { return d_->record.error; }
std::uint64_t Result::executions() const { return d_->record.executions; }
double Result::elapsed_s() const { return d_->record.elapsed_s; }
bool Result::complete() const { return d_->record.complete; }
bool Result::instrumented() const { return d_->record.instrumented; }
const std::string& Result::strategy() const { return d_->record.strategy; }
std::uint64_t Result::seed() const { return d_->record.seed; }
std::string Result::coverage() const {
  const Coverage& c = d_->record.coverage;
  if (!c.summary.empty()) return c.summary;
  return std::to_string(d_->record.executions) + " executions sampled (" +
         std::string(coverage_kind_name(c.kind)) + ")";
}
std::string Result::report() const { return format_text(d_->record, d_->symbolizer->get()); }
std::string Result::json() const { return format_json(d_->record, d_->symbolizer->get()); }

std::string strategies() {
  std::string out;
  for (const StrategyInfo& s : strategy_list()) {
    out += std::string(s.usage);
    out.append(s.usage.size() < 14 ? 14 - s.usage.size() : 1, ' ');
    out += std::string(s.description) + "\n";
  }
  return out;
}

}  // namespace weft
