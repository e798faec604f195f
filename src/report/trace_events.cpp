#include "report/trace_events.hpp"

#include "report/happens_before_arrows.hpp"
#include "report/json_line.hpp"
#include "report/location.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"

namespace weft {
namespace {

constexpr int kPid = 1;

// The events, a line each, written field by field (json_line.hpp).
class EventLines {
 public:
  explicit EventLines(std::size_t steps) { text_.reserve(steps * 320); }
  // A new event's line, its common fields written: add the rest to what it returns.
  JsonLine event(const char* ph, std::uint64_t ts, ThreadId tid) {
    text_ += text_.empty() ? "\n" : ",\n";
    JsonLine e(&text_);
    e.field("ph", ph).field("ts", ts).field("pid", kPid).field("tid", tid);
    return e;
  }
  std::string document() const {
    return "{\"traceEvents\": [" + text_ + "\n],\n\"displayTimeUnit\": \"ns\"}\n";
  }

 private:
  std::string text_;
};

std::string args_of(const std::string& name) {
  std::string args;
  JsonLine(&args).field("name", name);
  return args;
}

}  // namespace

std::string format_trace_events(const BugRecord& bug, Symbolizer& symbolizer) {
  const ObjectNames names(bug, symbolizer);
  EventLines events(bug.events.size());
  ThreadId threads = 0;
  for (const Event& e : bug.events) threads = std::max(threads, e.thread + 1);
  for (ThreadId t = 0; t < threads; ++t)
    events.event("M", 0, t).field("name", "thread_name").raw("args", args_of(names.thread(t)));
  std::uint64_t flow = 0;
  auto arrow = [&](std::size_t from, std::size_t to) {
    const std::uint64_t id = ++flow;
    events.event("s", from, bug.events[from].thread)
        .field("name", "happens-before")
        .field("cat", "hb")
        .field("id", id);
    events.event("f", to, bug.events[to].thread)
        .field("name", "happens-before")
        .field("cat", "hb")
        .field("id", id)
        .field("bp", "e");
  };
  const std::size_t from = std::min(bug.shown_from, bug.events.size());
  std::string args;
  for (std::size_t i = from; i < bug.events.size(); ++i) {
    const Event& e = bug.events[i];
    const Frame where = choose_location(e, symbolizer);
    args.clear();
    JsonLine(&args)
        .field("step", i + 1)
        .field("object", names.object(e.op, i))
        .field("location", where.file.empty() ? "" : where.file + ":" + std::to_string(where.line))
        .field("function", where.function);
    events.event("X", i, e.thread)
        .field("dur", 1)
        .field("name", op_text(e))
        .field("cat", op_name(e.op.kind))
        .raw("args", args);
    if (e.flags & kPreemption)
      events.event("i", i, e.thread).field("name", "preemption").field("s", "t");
  }
  for (const auto& [before, after] : happens_before_arrows(bug.events))
    if (before >= from) arrow(before, after);
  if (!bug.events.empty()) {
    const std::size_t last = bug.events.size() - 1;
    events.event("i", last, bug.thread != kNoThread ? bug.thread : bug.events[last].thread)
        .field("name", std::string(bug_kind_name(bug.kind)) + ": " + bug.message)
        .field("s", "g");
  }
  return events.document();
}

}  // namespace weft
