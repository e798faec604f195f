#include "report/html_report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "report/happens_before_arrows.hpp"
#include "report/location.hpp"
#include "report/object_history.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"

namespace weft {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
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
      'step ' + (step.i + 1) + ', ' + step.tn + ': ' + step.op + (step.obj ? ' ' + step.obj : '') +
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

// An api-misuse's object and what happened to it, oldest first.
std::string misuse_paragraph(const BugRecord& bug, const ObjectNames& names, Symbolizer& symbolizer) {
  const ObjectHistory history(bug, symbolizer);
  std::string html = "<p class=\"race\">" + std::string(ObjectHistory::noun(bug.misuse.kind)) +
                     " <code>" + escape(names.address(bug.misuse.object)) + "</code>:";
  if (history.omitted() != 0) html += "<br>(" + std::to_string(history.omitted()) + " earlier)";
  for (const ObjectHistory::Entry& e : history.entries())
    html += "<br>" + escape(e.what) + " by " + escape(names.thread(e.thread)) + " at " +
            escape(e.where.file.empty() ? "?" : e.where.file + ":" + std::to_string(e.where.line)) +
            (e.after_step ? " after step " : ", step ") + std::to_string(e.step);
  return html + "</p>\n";
}

}  // namespace

std::string format_html(const BugRecord& bug, Symbolizer& symbolizer, const std::string& program) {
  const ObjectNames names(bug, symbolizer);
  ThreadId threads = 0;
  for (const Event& e : bug.events) threads = std::max(threads, e.thread + 1);
  const std::size_t last = bug.events.empty() ? 0 : bug.events.size() - 1;
  const std::size_t from = std::min(bug.shown_from, last);
  const std::string kind(bug_kind_name(bug.kind));

  std::string html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>weft: " +
                     escape(kind) + " in " + escape(program) + "</title>\n<style>" + kStyle +
                     "</style></head>\n<body>\n";
  html += "<h1><span class=\"kind\">" + escape(kind) + "</span>: " + escape(bug.message) + "</h1>\n";
  html += "<p class=\"meta\">" + escape(program) + " &middot; " + std::to_string(bug.events.size()) +
          " steps &middot; " + std::to_string(bug.preemptions()) + " preemption" +
          (bug.preemptions() == 1 ? "" : "s") + " &middot; found in execution " +
          std::to_string(bug.execution) +
          (from != 0 ? " &middot; the last " + std::to_string(bug.events.size() - from) +
                           " steps shown (--full-trace shows all)"
                     : "") +
          "<br>replay: <code>weft replay SCHEDULE -- " +
          escape(program) + "</code> with the schedule <code>" + escape(bug.schedule) +
          "</code></p>\n";
  if (bug.has_race) {
    // The two accesses that race: the later (the one that found it) first.
    const DataRace& r = bug.race;
    const bool freed = bug.kind == BugKind::kUseAfterFree;
    html += std::string("<p class=\"race\">") + (freed ? "use of freed" : "race on") + " <code>" +
            escape(names.address(r.address)) + "</code>:";
    for (const RaceAccess* a : {&r.later, &r.earlier}) {
      if (a->thread == kNoThread) continue;
      const Frame where = choose_location(a->pc, symbolizer);
      const std::string src = where.file.empty() ? "" : symbolizer.source_line(where.file, where.line);
      const std::string what = a->free ? (a == &r.earlier ? "freed" : "free again")
                                       : (a == &r.earlier ? "earlier " : "") +
                                             std::string(a->write ? "write" : "read");
      html += "<br>" + escape(names.thread(a->thread)) + " " + what + " of " +
              std::to_string(a->size) + " bytes at " +
              escape(where.file.empty() ? "?" : where.file + ":" + std::to_string(where.line)) +
              (src.empty() ? "" : " <code>" + escape(src) + "</code>");
    }
    html += "</p>\n";
  }
  if (bug.misuse.object != 0) html += misuse_paragraph(bug, names, symbolizer);
  html += "<p class=\"legend\">One lane per thread, one box per step in schedule order. An "
          "orange edge marks a preemption (the thread before could have gone on); the red box "
          "is the failing step; blue arrows are happens-before edges between threads. Hover "
          "or click a step for its source line.</p>\n";
  html += "<div id=\"wrap\"><svg id=\"arrows\"><defs><marker id=\"head\" viewBox=\"0 0 10 10\" "
          "refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path "
          "d=\"M0,0 L10,5 L0,10 z\" fill=\"#2a62c9\"/></marker></defs></svg>\n";
  html += "<div id=\"lanes\" style=\"grid-template-columns: 3em repeat(" + std::to_string(threads) +
          ", minmax(12em, 1fr))\">\n<div></div>";
  for (ThreadId t = 0; t < threads; ++t)
    html += "<div class=\"lane-head\" data-thread=\"" + std::to_string(t) + "\">" +
            escape(names.thread(t)) + "</div>";
  html += "\n";

  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t i = from; i < bug.events.size(); ++i) {
    const Event& e = bug.events[i];
    const Frame where = choose_location(e, symbolizer);
    const std::string loc = where.file.empty() ? "" : where.file + ":" + std::to_string(where.line);
    const std::string src = where.file.empty() ? "" : symbolizer.source_line(where.file, where.line);
    const std::string op(op_name(e.op.kind));
    const std::string obj = names.object(e.op, i);
    const bool preemption = (e.flags & kPreemption) != 0;
    const bool failing = i == last;
    const std::string row = std::to_string(i - from + 2);
    html += "<div class=\"stepno\" style=\"grid-row:" + row + ";grid-column:1\">" +
            std::to_string(i + 1) + "</div>";
    html += "<div id=\"s" + std::to_string(i) + "\" class=\"step" +
            (preemption ? " preemption" : "") + (failing ? " bug" : "") + "\" data-step=\"" +
            std::to_string(i + 1) + "\" data-thread=\"" + std::to_string(e.thread) +
            "\" style=\"grid-row:" + row + ";grid-column:" + std::to_string(e.thread + 2) +
            "\" title=\"" + escape(loc + (src.empty() ? "" : "\n" + src)) + "\"><span class=\"op\">" +
            escape(op_text(e)) + "</span>" + (obj.empty() ? "" : " <span class=\"obj\">" + escape(obj) + "</span>") +
            (preemption ? "<span class=\"badge\">preemption</span>" : "") +
            (failing ? "<span id=\"bug-marker\">&#10006; " + escape(kind) + "</span>" : "") +
            (loc.empty() ? "" : "<span class=\"loc\">" + escape(loc) + "</span>") + "</div>\n";
    steps.push_back({{"i", i}, {"t", e.thread}, {"tn", names.thread(e.thread)}, {"op", op}, {"obj", obj}, {"loc", loc},
                     {"fn", where.function}, {"src", src}});
  }
  html += "</div></div>\n<div id=\"detail\">Click a step to see its source line.</div>\n";
  // Heap objects by where they were allocated (their steps name them heap#1, heap#2...).
  if (!names.heap_blocks().empty()) {
    html += "<h2>Heap objects</h2>\n<table id=\"heap\">\n";
    for (std::size_t i = 0; i < names.heap_blocks().size(); ++i) {
      const Allocation& a = names.heap_blocks()[i];
      const Frame where = choose_location(a, symbolizer);
      const std::string loc = where.file.empty() ? "" : where.file + ":" + std::to_string(where.line);
      const std::string src = where.file.empty() ? "" : symbolizer.source_line(where.file, where.line);
      html += "<tr><td><code>" + ObjectNames::heap_block_name(i) + "</code></td><td>" +
              std::to_string(a.size) + " bytes</td><td>allocated by " + escape(names.thread(a.thread)) +
              " before step " + std::to_string(a.step + 1) + "</td><td>" + escape(loc) +
              "</td><td><code>" + escape(src) + "</code></td></tr>\n";
    }
    html += "</table>\n";
  }

  nlohmann::json arrows = nlohmann::json::array();
  for (const auto& [before, after] : happens_before_arrows(bug.events))
    if (before >= from) arrows.push_back({before, after});
  nlohmann::json data = {{"steps", std::move(steps)}, {"arrows", std::move(arrows)}};
  // "</" never appears inside the script: the JSON escapes it.
  std::string payload = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  for (std::size_t p = 0; (p = payload.find("</", p)) != std::string::npos; p += 3)
    payload.replace(p, 2, "<\\/");
  html += "<script>\nconst WEFT = " + payload + ";\n" + kScript + "</script>\n</body></html>\n";
  return html;
}

}  // namespace weft
