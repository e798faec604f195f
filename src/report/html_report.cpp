#include "report/html_report.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <vector>

#include "report/culprit_steps.hpp"
#include "report/happens_before_arrows.hpp"
#include "report/json_line.hpp"
#include "report/location.hpp"
#include "report/object_history.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"
#include "report/wait_for.hpp"

namespace weft {
namespace {

std::string escape(const std::string& text) {
  auto special = [](char c) { return c == '&' || c == '<' || c == '>' || c == '"' || c == '\''; };
  auto next = std::find_if(text.begin(), text.end(), special);
  if (next == text.end()) return text;  // most are plain
  std::string out;
  out.reserve(text.size() + 16);
  for (auto at = text.begin();; at = next + 1, next = std::find_if(at, text.end(), special)) {
    out.append(at, next);
    if (next == text.end()) break;
    switch (*next) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += "&#39;";
    }
  }
  return out;
}

// Everything the page needs is in it: no network access, no external file.
constexpr const char* kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
h1 .kind { color: #b00020; }
.meta { color: #555; margin: 0 0 1em; }
.meta code { font-size: 12px; }
#wrap { position: relative; }
#lanes { display: grid; gap: 2px 12px; align-items: start; }
.lane-head { font-weight: 600; border-bottom: 2px solid #888; padding: 2px 4px; position: sticky; top: 0; background: #fff; }
.stepno { color: #999; text-align: right; font-size: 12px; padding-top: 4px; }
.step { border: 1px solid #c8d3e6; background: #eef3fb; border-radius: 4px; padding: 2px 6px; cursor: pointer; position: relative; z-index: 1; }
.step .op { font-weight: 600; }
.step .obj { color: #555; font-family: monospace; font-size: 12px; }
.step .value { color: #05a; font-family: monospace; font-size: 12px; }
.step .loc { display: block; color: #666; font-size: 12px; }
.step.preemption { border-left: 5px solid #e08a00; }
.step .badge { font-size: 11px; color: #a35f00; margin-left: .4em; }
.step.bug { border: 2px solid #b00020; background: #fde8eb; }
#bug-marker { color: #b00020; font-weight: 700; margin-left: .4em; }
.step.selected { outline: 2px solid #2a62c9; }
#arrows { position: absolute; left: 0; top: 0; pointer-events: none; z-index: 2; }
#arrows line.hb { stroke: #2a62c9; stroke-width: 1.5; opacity: .55; }
#detail { margin-top: 1em; padding: .6em; border: 1px solid #ddd; background: #fafafa; white-space: pre-wrap; font-family: monospace; font-size: 12px; min-height: 2em; }
.legend { color: #555; font-size: 12px; margin: .4em 0 1em; }
#heap { border-collapse: collapse; font-size: 13px; }
#heap td { padding: 2px 10px 2px 0; vertical-align: top; }
h2 { font-size: 16px; margin: 1.2em 0 .4em; }
#bug-location code, #race code, #blocked code { font-size: 12px; }
.step.race { border: 2px dashed #b00020; }
.step .race-badge { font-size: 11px; color: #b00020; margin-left: .4em; }
#cycle .cycle-thread { font-weight: 600; }
table.facts { border-collapse: collapse; font-size: 13px; }
table.facts td { padding: 2px 10px 2px 0; vertical-align: top; }
#output { white-space: pre-wrap; font-family: monospace; font-size: 12px; background: #f6f6f6; border: 1px solid #ddd; padding: .5em; max-height: 30em; overflow: auto; }
#replay code { font-size: 13px; background: #f6f6f6; padding: 2px 4px; }
)";

// Draws the happens-before arrows once the lanes are laid out, and shows a step's source
// line and details when it is clicked (they are also its tooltip).
constexpr const char* kScript = R"(
function drawArrows() {
  const wrap = document.getElementById('wrap');
  const svg = document.getElementById('arrows');
  const box = wrap.getBoundingClientRect();
  svg.setAttribute('width', wrap.scrollWidth);
  svg.setAttribute('height', wrap.scrollHeight);
  while (svg.lastChild && svg.lastChild.tagName !== 'defs') svg.removeChild(svg.lastChild);
  for (const [from, to] of WEFT.arrows) {
    const a = document.getElementById('s' + from).getBoundingClientRect();
    const b = document.getElementById('s' + to).getBoundingClientRect();
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    line.setAttribute('class', 'hb');
    line.setAttribute('x1', a.left + a.width / 2 - box.left);
    line.setAttribute('y1', a.bottom - box.top);
    line.setAttribute('x2', b.left + b.width / 2 - box.left);
    line.setAttribute('y2', b.top - box.top);
    line.setAttribute('marker-end', 'url(#head)');
    line.dataset.from = from;
    line.dataset.to = to;
    svg.appendChild(line);
  }
}
function select(step) {
  document.querySelectorAll('.step.selected').forEach(e => e.classList.remove('selected'));
  const el = document.getElementById('s' + step.i);
  el.classList.add('selected');
  document.getElementById('detail').textContent =
      'step ' + (step.i + 1) + ', ' + step.tn + ': ' + step.op +
      (step.obj ? ' ' + step.obj + step.value : '') +
      (step.loc ? '\n' + step.loc + (step.fn ? '  (' + step.fn + ')' : '') : '') +
      (step.src ? '\n    ' + step.src : '');
}
window.addEventListener('load', () => {
  for (const step of WEFT.steps)
    document.getElementById('s' + step.i).addEventListener('click', () => select(step));
  drawArrows();
  document.body.dataset.ready = 'true';
});
window.addEventListener('resize', drawArrows);
)";

std::string place(const Frame& f) {
  return f.file.empty() ? "?" : f.file + ":" + std::to_string(f.line);
}

std::string plural(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// The page, part by part; every text that comes from the program (its output, names,
// messages, paths, source lines) goes through escape().
class PageWriter {
 public:
  PageWriter(const RunRecord& run, Symbolizer& symbolizer, const HtmlContext& context)
      : run_(run),
        bug_(run.bugs.front()),
        sym_(symbolizer),
        context_(context),
        names_(bug_, symbolizer) {}

  std::string write() {
    const std::string kind(bug_kind_name(bug_.kind));
    // Room for every step (a box, its details for the script): a long trace's page grows
    // to tens of MB, and each doubling would touch fresh pages.
    const std::size_t shown = bug_.events.size() - from();
    html_.reserve((std::size_t{64} << 10) + shown * 1024);
    steps_.reserve(shown * 384);
    html_ = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>weft: " +
            escape(kind) + " in " + escape(context_.program) + "</title>\n<style>" + kStyle +
            "</style></head>\n<body>\n";
    html_ +=
        "<h1><span class=\"kind\">" + escape(kind) + "</span>: " + escape(bug_.message) + "</h1>\n";
    write_meta();
    write_location();
    if (bug_.has_race) write_race(bug_, "race", true);
    if (bug_.misuse.object != 0) write_misuse();
    if (!bug_.blocked.empty()) write_blocked();
    write_lanes();
    write_heap_blocks();
    write_races_seen();
    write_output();
    html_ += "<script>\nconst WEFT = ";
    write_payload();
    html_ += ";\n" + std::string(kScript) + "</script>\n</body></html>\n";
    return std::move(html_);
  }

 private:
  std::size_t from() const {
    return bug_.events.empty() ? 0 : std::min(bug_.shown_from, bug_.events.size() - 1);
  }

  // Steps, preemptions, the execution that found it, and the command that replays it.
  void write_meta() {
    const std::size_t shown = bug_.events.size() - from();
    html_ += "<p class=\"meta\">" + escape(context_.program) + " &middot; " +
             plural(bug_.events.size(), "step") + " &middot; " +
             plural(bug_.preemptions(), "preemption") +
             " &middot; found in execution <span id=\"execution\">" +
             std::to_string(bug_.execution) + "</span>" +
             (from() != 0 ? " &middot; the last " + std::to_string(shown) +
                                " steps shown (--full-trace shows all)"
                          : "") +
             "</p>\n";
    const std::string command = context_.replay_command.empty()
                                    ? "weft replay SCHEDULE -- " + context_.program
                                    : context_.replay_command;
    html_ += "<p id=\"replay\">replay: <code id=\"replay-command\">" + escape(command) + "</code>";
    if (context_.replay_command.empty())
      html_ += " with the schedule <code>" + escape(bug_.schedule) + "</code> in the file SCHEDULE";
    html_ += "</p>\n";
  }

  // Where it failed: the thread, file:line and function, and the source line.
  void write_location() {
    const Frame where = bug_location(bug_, sym_);
    if (where.file.empty() && where.function.empty()) return;
    html_ += "<p id=\"bug-location\">";
    if (bug_.thread != kNoThread) html_ += escape(names_.thread(bug_.thread)) + " ";
    html_ += "at <code class=\"place\">" + escape(place(where)) + "</code>";
    if (!where.function.empty()) html_ += " in <code>" + escape(where.function) + "</code>";
    const std::string src = where.file.empty() ? "" : sym_.source_line(where.file, where.line);
    if (!src.empty())
      html_ += "<br><code class=\"source\">" + std::to_string(where.line) + " | " + escape(src) +
               "</code>";
    html_ += "</p>\n";
  }

  // The two accesses that race: the later (the one that found it) first.
  void write_race(const BugRecord& bug, const char* id, bool in_lanes) {
    const ObjectNames names(bug, sym_);
    const DataRace& r = bug.race;
    const bool freed = bug.kind == BugKind::kUseAfterFree;
    html_ += std::string("<p") + (*id ? std::string(" id=\"") + id + "\"" : "") +
             " class=\"race\">" + (freed ? "use of freed" : "race on") + " <code>" +
             escape(names.address(r.address)) + "</code>" +
             (in_lanes ? " (the dashed boxes below)" : "") + ":";
    for (const RaceAccess* a : {&r.later, &r.earlier}) {
      if (a->thread == kNoThread) continue;
      const Frame where = choose_location(a->pc, sym_);
      const std::string src = where.file.empty() ? "" : sym_.source_line(where.file, where.line);
      html_ += "<br><span class=\"race-access\" data-thread=\"" + std::to_string(a->thread) +
               "\">" + escape(names.thread(a->thread)) + " " + access_name(*a, a == &r.earlier) +
               " of " + plural(a->size, "byte") + " at <code>" + escape(place(where)) + "</code>" +
               (where.function.empty() ? "" : " in <code>" + escape(where.function) + "</code>") +
               (src.empty() ? "" : " <code class=\"source\">" + escape(src) + "</code>") +
               "</span>";
    }
    html_ += "</p>\n";
  }

  static std::string access_name(const RaceAccess& a, bool earlier) {
    if (a.free) return earlier ? "freed" : "free again";
    return (earlier ? "earlier " : "") + std::string(a.write ? "write" : "read");
  }

  // An api-misuse's object and what happened to it, oldest first.
  void write_misuse() {
    const ObjectHistory history(bug_, sym_);
    html_ += "<p class=\"misuse\">" + std::string(ObjectHistory::noun(bug_.misuse.kind)) +
             " <code>" + escape(names_.address(bug_.misuse.object)) + "</code>:";
    if (history.omitted() != 0) html_ += "<br>(" + std::to_string(history.omitted()) + " earlier)";
    for (const ObjectHistory::Entry& e : history.entries())
      html_ += "<br>" + escape(e.what) + " by " + escape(names_.thread(e.thread)) + " at " +
               escape(place(e.where)) + (e.after_step ? " after step " : ", step ") +
               std::to_string(e.step);
    html_ += "</p>\n";
  }

  // A deadlock's (or a livelock's) threads: what each waits in, for whom, and the cycle.
  void write_blocked() {
    const bool livelock = bug_.kind == BugKind::kLivelock;
    const WaitFor waits(bug_);
    html_ += std::string("<h2>") + (livelock ? "Threads running at the end" : "Blocked threads") +
             "</h2>\n<table id=\"blocked\" class=\"facts\">\n";
    for (const BlockedThread& b : bug_.blocked) {
      const Frame where = choose_location(b.op, sym_);
      const std::string src = where.file.empty() ? "" : sym_.source_line(where.file, where.line);
      const ThreadId holder = waits.holder(b.thread);
      html_ +=
          "<tr class=\"blocked-thread\" data-thread=\"" + std::to_string(b.thread) + "\"><td>" +
          escape(names_.thread(b.thread)) + "</td><td>" + escape(std::string(op_name(b.op.kind))) +
          " <code>" + escape(names_.object(b.op)) + "</code></td><td>" +
          (holder == kNoThread ? "" : "waits for " + escape(names_.thread(holder))) +
          "</td><td><code>" + escape(place(where)) + "</code></td><td><code>" +
          escape(where.function) + "</code></td><td><code>" + escape(src) + "</code></td></tr>\n";
    }
    html_ += "</table>\n";
    const std::vector<ThreadId> cycle = waits.cycle();
    if (cycle.empty()) return;
    html_ += "<p id=\"cycle\">cycle: ";
    for (ThreadId t : cycle)
      html_ += "<span class=\"cycle-thread\" data-thread=\"" + std::to_string(t) + "\">" +
               escape(names_.thread(t)) + "</span> waits for ";
    html_ += "<span class=\"cycle-thread\" data-thread=\"" + std::to_string(cycle.front()) + "\">" +
             escape(names_.thread(cycle.front())) + "</span></p>\n";
  }

  void write_lanes();
  void write_step(std::size_t i, const std::array<std::size_t, 2>& race);
  void write_unscheduled_accesses(const std::array<std::size_t, 2>& race);
  void write_heap_blocks();
  void write_races_seen();
  void write_output();
  void write_payload();

  const RunRecord& run_;
  const BugRecord& bug_;
  Symbolizer& sym_;
  const HtmlContext& context_;
  const ObjectNames names_;
  std::string html_;
  std::string steps_;  // the steps' details for the script: JSON objects, comma-separated
};

void PageWriter::write_lanes() {
  ThreadId threads = 0;
  for (const Event& e : bug_.events) threads = std::max(threads, e.thread + 1);
  if (bug_.has_race)
    for (const RaceAccess* a : {&bug_.race.later, &bug_.race.earlier})
      if (a->thread != kNoThread) threads = std::max(threads, a->thread + 1);
  html_ +=
      "<h2>Interleaving</h2>\n<p class=\"legend\">One lane per thread, one box per step in "
      "schedule "
      "order. An orange edge marks a preemption (the thread before could have gone on); the red "
      "box is the failing step; dashed boxes are the racing accesses; blue arrows are "
      "happens-before edges between threads. Hover or click a step for its source line.</p>\n";
  html_ +=
      "<div id=\"wrap\"><svg id=\"arrows\"><defs><marker id=\"head\" viewBox=\"0 0 10 10\" "
      "refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path "
      "d=\"M0,0 L10,5 L0,10 z\" fill=\"#2a62c9\"/></marker></defs></svg>\n";
  html_ += "<div id=\"lanes\" style=\"grid-template-columns: 3em repeat(" +
           std::to_string(threads) + ", minmax(12em, 1fr))\">\n<div></div>";
  for (ThreadId t = 0; t < threads; ++t)
    html_ += "<div class=\"lane-head\" data-thread=\"" + std::to_string(t) + "\">" +
             escape(names_.thread(t)) + "</div>";
  html_ += "\n";
  const std::array<std::size_t, 2> race = race_steps(bug_);
  for (std::size_t i = from(); i < bug_.events.size(); ++i) write_step(i, race);
  write_unscheduled_accesses(race);
  html_ += "</div></div>\n<div id=\"detail\">Click a step to see its source line.</div>\n";
}

// The racing accesses that were no steps of the trace (plain accesses become scheduling
// points only once seen racing): a last row, each in its thread's lane.
void PageWriter::write_unscheduled_accesses(const std::array<std::size_t, 2>& race) {
  if (!bug_.has_race || (race[0] != kNotInTrace && race[1] != kNotInTrace)) return;
  const std::string row = std::to_string(bug_.events.size() - from() + 2);
  html_ += "<div class=\"stepno\" style=\"grid-row:" + row + ";grid-column:1\">race</div>";
  const RaceAccess* sides[2] = {&bug_.race.later, &bug_.race.earlier};
  for (std::size_t k = 0; k < 2; ++k) {
    const RaceAccess& a = *sides[k];
    if (race[k] != kNotInTrace || a.thread == kNoThread) continue;
    const Frame where = choose_location(a.pc, sym_);
    html_ += "<div class=\"step race unscheduled\" data-thread=\"" + std::to_string(a.thread) +
             "\" style=\"grid-row:" + row + ";grid-column:" + std::to_string(a.thread + 2) +
             "\"><span class=\"op\">" + access_name(a, k == 1) + "</span> <span class=\"obj\">" +
             escape(names_.address(bug_.race.address)) + "</span><span class=\"race-badge\">" +
             (k == 0 ? "racing access" : "earlier access") +
             ", between this thread's steps (not a scheduling point)</span><span class=\"loc\">" +
             escape(place(where)) + "</span></div>\n";
  }
}

// One box in its thread's lane, and its details for the script.
void PageWriter::write_step(std::size_t i, const std::array<std::size_t, 2>& race) {
  const Event& e = bug_.events[i];
  const Frame where = choose_location(e, sym_);
  const std::string loc = where.file.empty() ? "" : place(where);
  const std::string src = where.file.empty() ? "" : sym_.source_line(where.file, where.line);
  const std::string obj = names_.object(e.op, i);
  const std::string value = obj.empty() ? "" : value_text(e);
  const std::string kind(bug_kind_name(bug_.kind));
  const bool preemption = (e.flags & kPreemption) != 0;
  const bool failing = i + 1 == bug_.events.size();
  const bool racing = i == race[0] || i == race[1];
  const std::string row = std::to_string(i - from() + 2);
  html_ += "<div class=\"stepno\" style=\"grid-row:" + row + ";grid-column:1\">" +
           std::to_string(i + 1) + "</div>";
  html_ += "<div id=\"s" + std::to_string(i) + "\" class=\"step" +
           (preemption ? " preemption" : "") + (failing ? " bug" : "") + (racing ? " race" : "") +
           "\" data-step=\"" + std::to_string(i + 1) + "\" data-thread=\"" +
           std::to_string(e.thread) + "\" style=\"grid-row:" + row +
           ";grid-column:" + std::to_string(e.thread + 2) + "\" title=\"" +
           escape(loc + (src.empty() ? "" : "\n" + src)) + "\"><span class=\"op\">" +
           escape(op_text(e)) + "</span>" +
           (obj.empty() ? "" : " <span class=\"obj\">" + escape(obj) + "</span>") +
           (value.empty() ? "" : "<span class=\"value\">" + escape(value) + "</span>") +
           (preemption ? "<span class=\"badge\">preemption</span>" : "") +
           (racing ? std::string("<span class=\"race-badge\">") +
                         (i == race[0] ? "racing access" : "earlier access") + "</span>"
                   : "") +
           (failing ? "<span id=\"bug-marker\">&#10006; " + escape(kind) + "</span>" : "") +
           (loc.empty() ? "" : "<span class=\"loc\">" + escape(loc) + "</span>") + "</div>\n";
  // Dumped now, not kept as a document: a long trace's took hundreds of MB.
  if (!steps_.empty()) steps_ += ',';
  JsonLine(&steps_)
      .field("i", i)
      .field("t", e.thread)
      .field("tn", names_.thread(e.thread))
      .field("op", op_name(e.op.kind))
      .field("obj", obj)
      .field("value", value)
      .field("loc", loc)
      .field("fn", where.function)
      .field("src", src);
}

// Heap objects by where they were allocated (their steps name them heap#1, heap#2...).
void PageWriter::write_heap_blocks() {
  if (names_.heap_blocks().empty()) return;
  html_ += "<h2>Heap objects</h2>\n<table id=\"heap\">\n";
  for (std::size_t i = 0; i < names_.heap_blocks().size(); ++i) {
    const Allocation& a = names_.heap_blocks()[i];
    const Frame where = choose_location(a, sym_);
    const std::string src = where.file.empty() ? "" : sym_.source_line(where.file, where.line);
    html_ += "<tr><td><code>" + escape(names_.heap_block_label(i)) + "</code></td><td>" +
             plural(a.size, "byte") + "</td><td>allocated by " + escape(names_.thread(a.thread)) +
             " before step " + std::to_string(a.step + 1) + "</td><td>" +
             escape(where.file.empty() ? "" : place(where)) + "</td><td><code>" + escape(src) +
             "</code></td></tr>\n";
  }
  html_ += "</table>\n";
}

// The data races the run reported without failing (--races=report), each with its schedule.
void PageWriter::write_races_seen() {
  html_ += "<h2>Data races seen</h2>\n<div id=\"races\">\n";
  if (run_.races.empty())
    html_ += "<p>None reported beside the bug" +
             std::string(bug_.has_race ? " (the race above is the bug)" : "") + ".</p>\n";
  for (const BugRecord& r : run_.races) {
    write_race(r, "", false);
    html_ += "<p class=\"race-found\">found in execution " + std::to_string(r.execution) +
             "; schedule: <code>" + escape(r.schedule) + "</code></p>\n";
  }
  html_ += "</div>\n";
}

void PageWriter::write_output() {
  html_ += "<h2>Output of the failing execution</h2>\n";
  if (context_.output.empty()) {
    html_ += "<p id=\"no-output\">It printed nothing.</p>\n";
    return;
  }
  html_ += "<pre id=\"output\">" + escape(context_.output) + "</pre>\n";
}

// The steps and arrows for the script, as JSON that cannot end the script or open a
// comment in it: every '<', '>' and '&' escaped (they only occur inside its strings).
void PageWriter::write_payload() {
  nlohmann::json arrows = nlohmann::json::array();
  for (const auto& [before, after] : happens_before_arrows(bug_.events))
    if (before >= from()) arrows.push_back({before, after});
  const std::string arrows_text = arrows.dump();
  for (std::string_view text :
       {std::string_view("{\"steps\":["), std::string_view(steps_),
        std::string_view("],\"arrows\":"), std::string_view(arrows_text), std::string_view("}")})
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t special = std::min(text.find_first_of("<>&", at), text.size());
      html_.append(text, at, special - at);
      if (special == text.size()) break;
      html_ += text[special] == '<' ? "\\u003c" : text[special] == '>' ? "\\u003e" : "\\u0026";
      at = special + 1;
    }
}

}  // namespace

std::string format_html(const RunRecord& run, Symbolizer& symbolizer, const HtmlContext& context) {
  if (run.bugs.empty()) return {};
  return PageWriter(run, symbolizer, context).write();
}

}  // namespace weft
