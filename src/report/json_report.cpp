#include "report/json_report.hpp"

#include <nlohmann/json.hpp>

#include "report/json_line.hpp"
#include "report/location.hpp"
#include "report/object_history.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"

namespace weft {
namespace {

// Keeps fields in the order written: version and run facts first, for people reading it.
using json = nlohmann::ordered_json;

json location_object(const Frame& f) {
  return {{"function", f.function}, {"file", f.file}, {"line", f.line}};
}

std::string object_string(const Op& op) {
  return op.object == 0 ? std::string() : hex_address(op.object);
}

// The traces' steps, each dumped as it is made and spliced into the document's text after
// (one step per line): a document holding 100,000 steps' objects took hundreds of MB and
// most of a long report's time. A trace is a placeholder in the document until then.
class StepArrays {
 public:
  // The placeholder of a trace whose steps, dumped, are `steps` (one per line).
  json add(std::string steps) {
    arrays_.push_back(std::move(steps));
    return marker(arrays_.size() - 1);
  }
  // `dumped` with each placeholder (the value of a "trace" key) replaced by its array,
  // its steps a line each below the line of its key (`indent` >= 0), or on that line (-1).
  std::string splice(const std::string& dumped, int indent) const {
    std::string out;
    out.reserve(dumped.size() + total());
    // With its key: a program's string that reads like a placeholder has its quotes
    // escaped, so it never matches.
    const std::string key = indent < 0 ? "\"trace\":" : "\"trace\": ";
    std::size_t at = 0;
    for (std::size_t k = 0; k < arrays_.size(); ++k) {
      const std::string quoted = json(marker(k)).dump(-1, ' ', false);
      const std::size_t found = dumped.find(key + quoted, at);
      if (found == std::string::npos) continue;
      const std::size_t value = found + key.size();
      out.append(dumped, at, value - at);
      const std::size_t line = dumped.rfind('\n', value) + 1;  // npos + 1: the first line
      const std::string pad =
          indent < 0 ? "" : "\n" + std::string(dumped.find_first_not_of(' ', line) - line, ' ');
      const std::string step_pad = indent < 0 ? "" : pad + std::string(indent, ' ');
      out += '[';
      const std::string& steps = arrays_[k];
      for (std::size_t from = 0; from < steps.size();) {
        const std::size_t end = std::min(steps.find('\n', from), steps.size());
        if (from != 0) out += ',';
        out += step_pad;
        out.append(steps, from, end - from);
        from = end + 1;
      }
      if (!steps.empty()) out += pad;
      out += ']';
      at = value + quoted.size();
    }
    out.append(dumped, at, std::string::npos);
    return out;
  }

 private:
  static std::string marker(std::size_t k) { return "\x01steps:" + std::to_string(k); }
  std::size_t total() const {
    std::size_t n = 0;
    for (const std::string& a : arrays_) n += a.size() + a.size() / 8;
    return n;
  }
  std::vector<std::string> arrays_;
};

// The threads a deadlock (or an exit) left blocked, at their waits.
json blocked_array(const BugRecord& bug, const ObjectNames& names, Symbolizer& symbolizer) {
  json blocked = json::array();
  for (const BlockedThread& t : bug.blocked) {
    blocked.push_back({{"thread", t.thread},
                       {"op", std::string(op_name(t.op.kind))},
                       {"object", object_string(t.op)},
                       {"object_name", names.object(t.op)},
                       {"location", location_object(choose_location(t.op, symbolizer))}});
  }
  return blocked;
}

// A race's address and its two accesses.
json race_object(const DataRace& r, const ObjectNames& names, Symbolizer& symbolizer) {
  json accesses = json::array();
  for (const RaceAccess* a : {&r.earlier, &r.later}) {
    accesses.push_back({{"thread", a->thread},
                        {"access", a->free    ? "free"
                                   : a->write ? "write"
                                              : "read"},
                        {"size", a->size},
                        {"location", location_object(choose_location(a->pc, symbolizer))}});
  }
  return {{"address", hex_address(r.address)},
          {"variable", symbolizer.variable(r.address)},
          {"object_name", names.address(r.address)},
          {"accesses", std::move(accesses)}};
}

// A misused object and what happened to it.
json misuse_object(const BugRecord& bug, const ObjectNames& names, Symbolizer& symbolizer) {
  const ObjectHistory history(bug, symbolizer);
  json events = json::array();
  for (const ObjectHistory::Entry& e : history.entries())
    events.push_back({{"event", e.what},
                      {"thread", e.thread},
                      {"step", e.step},
                      {"after_step", e.after_step},
                      {"location", location_object(e.where)}});
  return {{"object", hex_address(bug.misuse.object)},
          {"object_kind", ObjectHistory::noun(bug.misuse.kind)},
          {"object_name", names.address(bug.misuse.object)},
          {"earlier_events", history.omitted()},
          {"history", std::move(events)}};
}

// The shown steps, one JSON line each (StepArrays keeps them apart from the rest).
std::string trace_lines(const BugRecord& bug, const ObjectNames& names, Symbolizer& symbolizer) {
  std::string trace;
  const std::size_t from = std::min(bug.shown_from, bug.events.size());
  for (std::size_t i = from; i < bug.events.size(); ++i) {
    const Event& e = bug.events[i];
    Frame where = choose_location(e, symbolizer);
    if (i != from) trace += '\n';
    JsonLine step(&trace);
    step.field("step", i + 1)
        .field("thread", e.thread)
        .field("op", op_name(e.op.kind))
        .field("object", object_string(e.op))
        .field("object_name", names.object(e.op, i))
        .field("size", is_memory_access(e.op.kind) ? e.op.size : 0)
        .field("preemption", (e.flags & kPreemption) != 0)
        .field("location",
               where.file.empty() ? std::string() : where.file + ":" + std::to_string(where.line))
        .field("function", where.function);
    if (targets_thread(e.op.kind)) step.field("target", e.op.aux);
    if (e.values & kValueBefore) step.field("value_before", e.before);
    if (e.values & kValueAfter) step.field("value_after", e.after);
  }
  return trace;
}

// The named threads and the heap blocks the report names.
void add_names(json& b, const BugRecord& bug, const ObjectNames& names, Symbolizer& symbolizer) {
  json threads = json::array();
  for (ThreadId t = 0; t < bug.thread_names.size(); ++t)
    if (!bug.thread_names[t].empty())
      threads.push_back({{"thread", t}, {"name", bug.thread_names[t]}});
  b["thread_names"] = std::move(threads);
  json heap = json::array();
  for (std::size_t i = 0; i < names.heap_blocks().size(); ++i) {
    const Allocation& a = names.heap_blocks()[i];
    heap.push_back({{"name", ObjectNames::heap_block_name(i)},
                    {"address", hex_address(a.address)},
                    {"size", a.size},
                    {"thread", a.thread},
                    {"step", a.step},
                    {"location", location_object(choose_location(a, symbolizer))}});
    const std::string label = names.heap_block_label(i);
    if (label != ObjectNames::heap_block_name(i)) heap.back()["label"] = label;
  }
  b["heap_objects"] = std::move(heap);
}

json bug_object(const BugRecord& bug, Symbolizer& symbolizer, StepArrays& steps) {
  const ObjectNames names(bug, symbolizer);
  json b;
  b["kind"] = std::string(bug_kind_name(bug.kind));
  b["message"] = bug.message;
  if (!bug.details.empty()) b["details"] = bug.details;
  b["thread"] = bug.thread == kNoThread ? json(nullptr) : json(bug.thread);
  b["execution"] = bug.execution;
  if (bug.part_execution != 0) b["shard_execution"] = bug.part_execution;
  if (bug.order != 0) b["order"] = bug.order - 1;
  b["preemptions"] = bug.preemptions();
  b["steps"] = bug.steps();
  b["schedule"] = bug.schedule;
  b["found_by"] = bug.found_by;
  b["hits"] = bug.hits;
  if (bug.minimize_executions != 0)
    b["minimized"] = {{"done", bug.minimized},
                      {"found_preemptions", bug.found_preemptions},
                      {"found_steps", bug.found_steps},
                      {"executions", bug.minimize_executions}};
  b["location"] = location_object(bug_location(bug, symbolizer));
  b["blocked"] = blocked_array(bug, names, symbolizer);
  if (bug.has_race) b["race"] = race_object(bug.race, names, symbolizer);
  if (bug.misuse.object != 0) b["misuse"] = misuse_object(bug, names, symbolizer);
  if (const std::size_t from = std::min(bug.shown_from, bug.events.size()); from != 0)
    b["trace_omitted"] = from;
  b["trace"] = steps.add(trace_lines(bug, names, symbolizer));
  add_names(b, bug, names, symbolizer);
  if (bug.leads_to_searched != 0) {
    b["leads_to_searched"] = bug.leads_to_searched;
    if (!bug.leads_to.empty()) b["leads_to"] = bug_object(bug.leads_to.front(), symbolizer, steps);
  }
  return b;
}

}  // namespace

std::string format_json(const RunRecord& run, Symbolizer& symbolizer, const std::string& program,
                        const std::vector<std::string>& args, int indent) {
  json j;
  j["version"] = kJsonReportVersion;
  j["weft_version"] = WEFT_VERSION;
  j["program"] = program;
  j["args"] = args;
  j["strategy"] = run.strategy;
  j["seed"] = run.seed;
  // A shard's result: weft merge combines the shards' into the search's.
  if (run.shard.sharded()) j["shard"] = {{"index", run.shard.index}, {"count", run.shard.count}};
  j["racy_points"] = run.racy_points;
  j["executions"] = run.executions;
  j["elapsed_s"] = run.elapsed_s;
  j["complete"] = run.complete;
  j["instrumented"] = run.instrumented;
  j["warnings"] = run.warnings;
  if (!run.note.empty()) j["note"] = run.note;
  if (!run.interrupted.empty()) j["interrupted"] = run.interrupted;
  // Long executions cut at --steps (max_steps) with every thread still making progress:
  // not livelocks, so not bugs, and not explored past the bound.
  // For weft run's merge of its workers' results (not in a result it shows).
  if (run.shard.sharded()) {
    j["order_runs"] = json::array();
    for (const RunRecord::OrderRun& r : run.order_runs)
      j["order_runs"].push_back({r.first, r.count});
  }
  j["max_steps"] = run.max_steps;
  j["cut_executions"] = run.cut_executions;
  j["restored_executions"] = run.restored_executions;
  j["coverage"] = {{"kind", std::string(coverage_kind_name(run.coverage.kind))},
                   {"complete", run.coverage.complete},
                   {"bound", run.coverage.bound},
                   {"executions", run.coverage.executions},
                   {"classes", run.coverage.classes},
                   {"nodes_created", run.coverage.nodes_created},
                   {"peak_nodes", run.coverage.peak_nodes},
                   {"summary", run.coverage.summary},
                   {"nondeterminism", run.coverage.nondeterminism}};
  if (!run.coverage.points.empty()) j["coverage"]["points"] = run.coverage.points;
  if (!run.error.empty()) j["error"] = run.error;
  StepArrays steps;
  json bugs = json::array();
  for (const BugRecord& bug : run.bugs) bugs.push_back(bug_object(bug, symbolizer, steps));
  j["bugs"] = std::move(bugs);
  json races = json::array();
  for (const BugRecord& race : run.races) races.push_back(bug_object(race, symbolizer, steps));
  j["races"] = std::move(races);
  // Replace invalid UTF-8 (a message quoting program bytes) rather than throw.
  return steps.splice(j.dump(indent, ' ', false, json::error_handler_t::replace), indent);
}

}  // namespace weft
