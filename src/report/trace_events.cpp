#include "report/trace_events.hpp"

#include <nlohmann/json.hpp>

#include "report/happens_before_arrows.hpp"
#include "report/location.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"

namespace weft {
namespace {

using json = nlohmann::ordered_json;
constexpr int kPid = 1;

json event(const char* ph, std::uint64_t ts, ThreadId tid) {
  return {{"ph", ph}, {"ts", ts}, {"pid", kPid}, {"tid", tid}};
}

}  // namespace

std::string format_trace_events(const BugRecord& bug, Symbolizer& symbolizer) {
  const ObjectNames names(bug, symbolizer);
  json events = json::array();
  ThreadId threads = 0;
  for (const Event& e : bug.events) threads = std::max(threads, e.thread + 1);
  for (ThreadId t = 0; t < threads; ++t) {
    json m = event("M", 0, t);
    m["name"] = "thread_name";
    m["args"] = {{"name", names.thread(t)}};
    events.push_back(std::move(m));
  }
  std::uint64_t flow = 0;
  auto arrow = [&](std::size_t from, std::size_t to) {
    const std::uint64_t id = ++flow;
    json s = event("s", from, bug.events[from].thread);
    s["name"] = "happens-before";
    s["cat"] = "hb";
    s["id"] = id;
    json f = event("f", to, bug.events[to].thread);
    f["name"] = "happens-before";
    f["cat"] = "hb";
    f["id"] = id;
    f["bp"] = "e";
    events.push_back(std::move(s));
    events.push_back(std::move(f));
  };
  const std::size_t from = std::min(bug.shown_from, bug.events.size());
  for (std::size_t i = from; i < bug.events.size(); ++i) {
    const Event& e = bug.events[i];
    const Frame where = choose_location(e, symbolizer);
    json x = event("X", i, e.thread);
    x["dur"] = 1;
    x["name"] = op_text(e);
    x["cat"] = std::string(op_name(e.op.kind));
    x["args"] = {{"step", i + 1},
                 {"object", names.object(e.op, i)},
                 {"location", where.file.empty() ? "" : where.file + ":" + std::to_string(where.line)},
                 {"function", where.function}};
    events.push_back(std::move(x));
    if (e.flags & kPreemption) {
      json p = event("i", i, e.thread);
      p["name"] = "preemption";
      p["s"] = "t";
      events.push_back(std::move(p));
    }
  }
  for (const auto& [before, after] : happens_before_arrows(bug.events))
    if (before >= from) arrow(before, after);
  if (!bug.events.empty()) {
    const std::size_t last = bug.events.size() - 1;
    json b = event("i", last, bug.thread != kNoThread ? bug.thread : bug.events[last].thread);
    b["name"] = std::string(bug_kind_name(bug.kind)) + ": " + bug.message;
    b["s"] = "g";
    events.push_back(std::move(b));
  }
  json j = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
  return j.dump(1, ' ', false, json::error_handler_t::replace);
}

}  // namespace weft
