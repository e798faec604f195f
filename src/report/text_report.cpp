#include "report/text_report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <utility>
#include <vector>

#include "report/culprit_steps.hpp"
#include "report/location.hpp"
#include "report/object_history.hpp"
#include "report/object_names.hpp"
#include "report/op_text.hpp"
#include "report/text_table.hpp"
#include "report/text_width.hpp"

namespace weft {
namespace {

constexpr std::size_t kMaxFunction = 70;  // demangled template names can run for pages
constexpr std::size_t kMaxSource = 72;

std::string count(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// The call a blocked thread is in, as the program made it (weft's step after a condition
// wait is its wake, after a futex wait its waking, at a barrier its passing).
std::string_view blocked_in(OpKind k) {
  switch (k) {
    case OpKind::CondWake: return "cond-wait";
    case OpKind::FutexWoken: return "futex-wait";
    case OpKind::BarrierPass: return "barrier-wait";
    default: return op_name(k);
  }
}

// ANSI colours when writing to a terminal; nothing otherwise.
class Paint {
 public:
  explicit Paint(bool on) : on_(on) {}
  std::string operator()(const std::string& text, const char* code) const {
    if (!on_ || text.empty()) return text;
    return "\x1b[" + std::string(code) + "m" + text + "\x1b[0m";
  }
  std::string bold(const std::string& t) const { return (*this)(t, "1"); }
  std::string dim(const std::string& t) const { return (*this)(t, "2"); }
  std::string error(const std::string& t) const { return (*this)(t, "1;31"); }
  std::string mark(const std::string& t) const { return (*this)(t, "1;33"); }
  // One colour per thread, so that a thread's steps are told apart at a glance.
  std::string thread(const std::string& t, ThreadId id, bool bold = false) const {
    static const char* const kColours[] = {"36", "35", "32", "34", "96", "95", "92", "94"};
    if (id == kNoThread) return bold ? this->bold(t) : t;
    return (*this)(t, (std::string(bold ? "1;" : "") + kColours[id % std::size(kColours)]).c_str());
  }

 private:
  bool on_;
};

class TextWriter {
 public:
  TextWriter(const RunRecord& run, Symbolizer& symbolizer, const TextOptions& options)
      : run_(run), sym_(symbolizer), options_(options), paint_(options.colour) {
    std::error_code ec;
    cwd_ = std::filesystem::current_path(ec).string();
    if (ec) cwd_.clear();
    if (!cwd_.empty() && cwd_.back() != '/') cwd_ += '/';
  }

  std::string write() {
    if (!run_.error.empty()) out_ += paint_.error("weft: error:") + " " + run_.error + "\n";
    for (std::size_t i = 0; i < run_.bugs.size(); ++i) {
      if (!out_.empty()) out_ += '\n';
      write_bug(run_.bugs[i], i);
    }
    if (!run_.races.empty()) {
      if (!out_.empty()) out_ += '\n';
      out_ += count(run_.races.size(), "data race") +
              " (reported, not failing: --races=report; replay one with its schedule):\n";
      for (const BugRecord& r : run_.races) {
        write_race(r, ObjectNames(r, sym_));
        out_ += "  found in execution " + std::to_string(r.execution) +
                "; schedule: " + r.schedule + "\n";
      }
    }
    if (run_.bugs.empty()) {
      if (!out_.empty() && !run_.races.empty()) out_ += '\n';
      if (run_.error.empty()) write_no_bug();  // an error is the whole story: one line
    } else {
      out_ += '\n';
      write_summary();
    }
    return std::move(out_);
  }

 private:
  // Paths under the working directory are shown relative to it: shorter, still clickable.
  std::string path(const std::string& file) const {
    if (!cwd_.empty() && file.starts_with(cwd_)) return file.substr(cwd_.size());
    return file;
  }

  std::string place(const Frame& f) const {
    if (f.file.empty()) return f.module.empty() ? std::string() : "(" + f.module + ")";
    return path(f.file) + ":" + std::to_string(f.line);
  }

  std::string source(const Frame& f) {
    if (!options_.source_lines) return {};
    const std::string& text = sym_.source_line(f.file, f.line);
    return text.empty() ? std::string() : "| " + clip(text, kMaxSource);
  }

  // Plain: a table paints it once it fits (fit_location).
  static std::string function(const Frame& f) { return shorten_name(f.function, kMaxFunction); }

  // A table's place, function and source columns (from `column` on) give way when its
  // rows are too wide: the source line and the function may go altogether.
  void fit_location(TextTable& table, std::size_t column) const {
    // The source line goes first, then the place's directories, then the function.
    table.fit(column, {ColumnFit::Give::kPath, 24, false, 1, {}});
    table.fit(column + 1, {ColumnFit::Give::kName, 20, true, 2,
                           [this](const std::string& t) { return paint_.dim(t); }});
    table.fit(column + 2, {ColumnFit::Give::kClip, 24, true, 0, {}});
  }

  std::string thread(const ObjectNames& names, ThreadId t) const {
    return paint_.thread(names.thread(t), t);
  }

  // What a data race led to when the search went on past it (--races fail): the bug, where,
  // and the schedule that shows it; or that none came.
  void write_leads_to(const BugRecord& race) {
    if (race.leads_to.empty()) {
      out_ += "leads to: nothing else in the " + count(race.leads_to_searched, "execution") +
              " searched past it (at most 10 s or 2000)\n";
      return;
    }
    const BugRecord& b = race.leads_to.front();
    const Frame where = bug_location(b, sym_);
    std::string line =
        "leads to: " + paint_.error(std::string(bug_kind_name(b.kind))) + ": " + b.message;
    if (!where.file.empty()) line += " -- at " + place(where);
    if (!where.function.empty()) line += " in " + shorten_name(where.function, kMaxFunction);
    out_ += line + "\n  (execution " + std::to_string(b.execution) + ", " +
            count(b.preemptions(), "preemption") +
            ", races not failing: replay it with --races=report and its schedule: " + b.schedule +
            ")\n";
  }

  void write_bug(const BugRecord& bug, std::size_t index) {
    const ObjectNames names(bug, sym_);
    Frame where = bug_location(bug, sym_);
    std::string head = run_.bugs.size() > 1 ? "bug " + std::to_string(index + 1) + " of " +
                                                  std::to_string(run_.bugs.size())
                                            : std::string("bug");
    const std::string kind(bug_kind_name(bug.kind));
    head = paint_.error(head + ": " + kind);
    // Say the kind once, even when the message starts with it ("deadlock: ...").
    std::string_view message = bug.message;
    if (message.starts_with(kind + ": ")) message.remove_prefix(kind.size() + 2);
    if (!message.empty()) head += ": " + paint_.bold(std::string(message));
    std::string at;
    if (bug.thread != kNoThread) at += thread(names, bug.thread);
    if (!where.file.empty()) at += (at.empty() ? "at " : " at ") + place(where);
    if (!where.function.empty())
      at += (at.empty() ? "in " : " in ") + shorten_name(where.function, kMaxFunction);
    if (where.file.empty() && where.function.empty() && bug.pc != 0) {
      // No symbol there (a library without them, such as OpenMP's runtime a thread blocked
      // in): the library at least says whose code it was.
      const std::vector<Frame>& chain = sym_.frames(bug.pc);
      if (!chain.empty() && !chain.front().module.empty())
        at += (at.empty() ? "in " : " in ") + chain.front().module;
    }
    if (!at.empty()) head += " -- " + at;
    out_ += head + "\n";
    if (options_.source_lines && !where.file.empty()) {
      const std::string& text = sym_.source_line(where.file, where.line);
      if (!text.empty()) out_ += "  " + std::to_string(where.line) + " | " + text + "\n";
    }

    if (!bug.details.empty()) {
      std::size_t at = 0;
      while (at < bug.details.size()) {
        const std::size_t end = bug.details.find('\n', at);
        out_ += "  " +
                bug.details.substr(at, end == std::string::npos ? std::string::npos : end - at) +
                "\n";
        at = end == std::string::npos ? bug.details.size() : end + 1;
      }
    }
    if (bug.has_race) write_race(bug, names);
    if (bug.misuse.object != 0) write_misuse(bug, names);
    write_interleaving(bug, names);
    if (!bug.blocked.empty()) write_blocked(bug, names);
    if (!names.heap_blocks().empty()) write_heap_blocks(names);
    if (bug.leads_to_searched != 0) write_leads_to(bug);

    const std::uint64_t steps = bug.steps();
    out_ += "preemptions: " + std::to_string(bug.preemptions()) +
            ", steps: " + std::to_string(steps) + ", found in execution " +
            std::to_string(bug.execution) + " of " +
            std::to_string(std::max<std::uint64_t>(run_.executions, bug.execution)) +
            (bug.found_by.empty() || bug.found_by == run_.strategy ? "" : " by " + bug.found_by) +
            (bug.hits > 1 ? ", hit by " + std::to_string(bug.hits) + " executions" : "") + "\n";
    if (bug.minimize_executions != 0)
      out_ += bug.minimized
                  ? "minimised: found with " + count(bug.found_preemptions, "preemption") + " in " +
                        count(bug.found_steps, "step") + "; the same bug with " +
                        count(bug.preemptions(), "preemption") + " after " +
                        count(bug.minimize_executions, "execution") +
                        " of merging its threads' steps and preemption-bounded search "
                        "(to keep the first: --no-minimize, or Options::minimize = false)\n"
                  : "minimised: no schedule with fewer preemptions shows the same bug within " +
                        count(bug.minimize_executions, "execution") + "\n";
    if (!run_.replay_hint.empty()) out_ += "replay: " + paint_.bold(run_.replay_hint) + "\n";
    if (!bug.schedule.empty()) out_ += "schedule: " + shown_schedule(bug.schedule) + "\n";
  }

  // A long schedule (a livelock's 100,000 steps) is shown by its start: the whole one is
  // in the JSON result and the schedule file that weft replay reads.
  static std::string shown_schedule(const std::string& schedule) {
    constexpr std::size_t kShown = 160;
    if (schedule.size() <= 2 * kShown) return schedule;
    return schedule.substr(0, kShown) + "... (" + std::to_string(schedule.size()) +
           " characters; all of it in the schedule file and the JSON result)";
  }

  // The misused object, named as the trace names it, and what happened to it: "mutex
  // heap#2 (allocated at q.c:12): destroyed by T1 at q.c:40 after step 17; locked by T2
  // at q.c:22 (step 23)".
  void write_misuse(const BugRecord& bug, const ObjectNames& names) {
    const ObjectHistory history(bug, sym_);
    std::string line =
        std::string(ObjectHistory::noun(bug.misuse.kind)) + " " + names.address(bug.misuse.object);
    const std::vector<Allocation>& blocks = names.heap_blocks();
    for (std::size_t i = blocks.size(); i-- > 0;)
      if (bug.misuse.object >= blocks[i].address &&
          bug.misuse.object < blocks[i].address + blocks[i].size) {
        line += " (allocated at " + place(choose_location(blocks[i], sym_)) + ")";
        break;
      }
    std::string events;
    if (history.omitted() != 0) events = count(history.omitted(), "earlier event") + "; ";
    for (const ObjectHistory::Entry& e : history.entries()) {
      if (&e != &history.entries().front()) events += "; ";
      events += e.what + " by " + names.thread(e.thread);
      if (!e.where.file.empty()) events += " at " + place(e.where);
      if (!e.after_step)
        events += " (step " + std::to_string(e.step) + ")";
      else
        events += e.step == 0 ? " before the first step" : " after step " + std::to_string(e.step);
    }
    out_ += line + ": " +
            (events.empty() ? std::string("no earlier use in this execution") : events) + "\n";
  }

  // The two accesses of a race, the later (the one that found it) first; for a use after
  // free, the access and the free.
  void write_race(const BugRecord& bug, const ObjectNames& names) {
    const DataRace& r = bug.race;
    const std::string var = sym_.variable(r.address);
    const std::string object = names.address(r.address);
    const bool freed = bug.kind == BugKind::kUseAfterFree;
    out_ += std::string(freed ? "use of freed " : "race on ") +
            (!var.empty()                ? "global '" + var + "'"
             : !object.starts_with("0x") ? object  // a heap block or a local, by name
                                         : std::string("memory")) +
            " at " + hex_address(r.address) + ":\n";
    TextTable table;
    fit_location(table, 3);
    for (const RaceAccess* a : {&r.later, &r.earlier}) {
      if (a->thread == kNoThread) continue;
      Frame where = choose_location(a->pc, sym_);
      const std::string what =
          a->free ? (a == &r.earlier ? "freed" : "free again")
                  : (a == &r.earlier ? "earlier " : "") + std::string(a->write ? "write" : "read");
      table.row({thread(names, a->thread), what, count(a->size, "byte"), place(where),
                 function(where), source(where)});
    }
    table.render(out_, "  ", options_.width);
  }

  // Steps that are never folded away: they show who ran, and why.
  static bool notable(const Event& e) {
    if (e.flags & (kPreemption | kTimedOut | kFailed | kSpurious)) return true;
    switch (e.op.kind) {
      case OpKind::ThreadStart:
      case OpKind::ThreadExit:
      case OpKind::ThreadCreate:
      case OpKind::ThreadJoin:
      case OpKind::ThreadTryJoin: return true;
      default: return false;
    }
  }

  // A failed try-lock that repeats its thread's step one or two steps back, as in
  // a spin loop (a try-lock and a yield): not notable again, so that a livelock's 100,000
  // steps fold. Preemptions and thread operations always are.
  static bool spin_repeat(const std::vector<Event>& events, std::size_t i) {
    const Event& e = events[i];
    if ((e.flags & kPreemption) != 0 || (e.flags & kFailed) == 0) return false;
    for (std::size_t back = 1; back <= 2 && back <= i; ++back) {
      const Event& p = events[i - back];
      if (p.thread == e.thread && p.flags == e.flags && p.op.kind == e.op.kind &&
          p.op.object == e.op.object && p.op.pc == e.op.pc)
        return true;
    }
    return false;
  }

  // One column per thread (a swimlane each) when there are few enough threads to read them
  // side by side within the width; otherwise a thread column.
  void write_interleaving(const BugRecord& bug, const ObjectNames& names) {
    const std::vector<Event>& events = bug.events;
    if (events.empty()) {
      out_ += "interleaving: no steps recorded\n";
      return;
    }
    // A deadlock has no failing step: everyone is blocked after the last one.
    const bool stuck = bug.kind == BugKind::kDeadlock || bug.kind == BugKind::kHang;
    const std::size_t from = std::min(bug.shown_from, events.size() - 1);
    out_ += "interleaving (" + count(events.size(), "step") + ", " +
            count(bug.preemptions(), "preemption") + "; > marks the " +
            (stuck ? "last" : "failing") + " step, * a preemption" +
            (from != 0 ? "; the last " + std::to_string(events.size() - from) +
                             " shown, --full-trace shows all"
                       : "") +
            "):\n";
    std::vector<ThreadId> threads;
    for (std::size_t i = from; i < events.size(); ++i)
      if (std::find(threads.begin(), threads.end(), events[i].thread) == threads.end())
        threads.push_back(events[i].thread);
    std::sort(threads.begin(), threads.end());

    // Never folded: where the thread changes, notable steps, the tail, and the culprits.
    const std::size_t n = events.size();
    const std::size_t tail = n > options_.unfolded_tail ? n - options_.unfolded_tail : 0;
    const std::vector<bool> culprit = culprit_steps(bug);
    std::vector<bool> keep(n);
    for (std::size_t i = from; i < n; ++i) {
      keep[i] = i == from || i >= tail || (notable(events[i]) && !spin_repeat(events, i)) ||
                events[i].thread != events[i - 1].thread || culprit[i];
    }
    const std::string indent = "  ";
    if (threads.size() <= options_.max_thread_columns) {
      const TextTable lanes = interleaving_table(bug, names, threads, keep, true);
      if (options_.width == 0 || lanes.least_width(indent.size()) <= options_.width) {
        lanes.render(out_, indent, options_.width);
        return;
      }
    }
    interleaving_table(bug, names, threads, keep, false).render(out_, indent, options_.width);
  }

  // The steps from bug.shown_from, the runs of unkept ones longer than fold_longer_than
  // folded into a line; with `lanes`, in a column per thread of `threads`.
  TextTable interleaving_table(const BugRecord& bug, const ObjectNames& names,
                               const std::vector<ThreadId>& threads, const std::vector<bool>& keep,
                               bool lanes) {
    const std::vector<Event>& events = bug.events;
    const std::size_t n = events.size();
    auto column = [&](ThreadId t) {
      return static_cast<std::size_t>(std::find(threads.begin(), threads.end(), t) -
                                      threads.begin());
    };
    const int digits = static_cast<int>(std::to_string(n).size());
    TextTable table;
    const std::size_t location = lanes ? 1 + threads.size() : 3;
    fit_location(table, location);
    if (lanes) {
      std::vector<std::string> header(1 + threads.size());
      for (std::size_t k = 0; k < threads.size(); ++k)
        header[1 + k] = paint_.thread(names.thread(threads[k]), threads[k], true);
      table.row(std::move(header));
    }
    for (std::size_t i = std::min(bug.shown_from, n - 1); i < n;) {
      if (!keep[i]) {
        // A run of unremarkable steps: all by the thread of the step before it.
        std::size_t end = i;
        while (end < n && !keep[end]) ++end;
        if (end - i > options_.fold_longer_than) {
          table.line(fold_line(events, i, end, names, lanes),
                     lanes ? 1 + column(events[i].thread) : 1);
          i = end;
          continue;
        }
      }
      const Event& e = events[i];
      const bool last = i + 1 == n;
      char number[32];
      std::snprintf(number, sizeof number, "%s%*zu", last ? ">" : " ", digits, i + 1);
      std::string what = op_text(e);
      const std::string object = names.object(e.op, i);
      if (!object.empty()) what += " " + object + value_text(e);
      what = paint_.thread(what, e.thread, last);
      if (e.flags & kPreemption) what = paint_.mark("*") + " " + what;
      Frame where = choose_location(e, sym_);
      std::vector<std::string> row;
      if (lanes) {
        row.assign(1 + threads.size(), std::string());
        row[1 + column(e.thread)] = what;
      } else {
        row = {std::string(), thread(names, e.thread), what};
      }
      row[0] = last ? paint_.error(number) : std::string(number);
      row.push_back(place(where));
      row.push_back(function(where));
      row.push_back(source(where));
      table.row(std::move(row));
      ++i;
    }
    return table;
  }

  std::string fold_line(const std::vector<Event>& events, std::size_t begin, std::size_t end,
                        const ObjectNames& names, bool lanes) const {
    std::vector<std::pair<std::string_view, std::size_t>> kinds;  // in order of appearance
    for (std::size_t i = begin; i < end; ++i) {
      std::string_view name = op_name(events[i].op.kind);
      auto it =
          std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == name; });
      if (it == kinds.end()) {
        kinds.emplace_back(name, 1);
      } else {
        ++it->second;
      }
    }
    std::string what;
    for (const auto& [name, count] : kinds) {
      what += (what.empty() ? "" : ", ") + std::to_string(count) + " " + std::string(name);
    }
    const ThreadId t = events[begin].thread;
    return paint_.dim("... " + count(end - begin, "step") +
                      (lanes ? "" : " of " + names.thread(t)) + " folded (" +
                      std::to_string(begin + 1) + "-" + std::to_string(end) + ": " + what + ")");
  }

  void write_blocked(const BugRecord& bug, const ObjectNames& names) {
    out_ += bug.kind == BugKind::kLivelock ? "threads running at the end (their last step):\n"
                                           : "blocked threads:\n";
    TextTable table;
    fit_location(table, 3);
    for (const BlockedThread& b : bug.blocked) {
      Frame where = choose_location(b.op, sym_);
      table.row({thread(names, b.thread), std::string(blocked_in(b.op.kind)), names.object(b.op),
                 place(where), function(where), source(where)});
    }
    table.render(out_, "  ", options_.width);
  }

  // Each heap block the steps name: its size and where it was allocated.
  void write_heap_blocks(const ObjectNames& names) {
    out_ += "heap objects:\n";
    TextTable table;
    fit_location(table, 3);
    const std::vector<Allocation>& blocks = names.heap_blocks();
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const Allocation& a = blocks[i];
      Frame where = choose_location(a, sym_);
      table.row(
          {names.heap_block_label(i), count(a.size, "byte"),
           "allocated by " + thread(names, a.thread) + " before step " + std::to_string(a.step + 1),
           place(where), function(where), source(where)});
    }
    table.render(out_, "  ", options_.width);
  }

  std::string coverage_text() const {
    const Coverage& c = run_.coverage;
    if (!c.summary.empty()) return c.summary;
    std::string text(coverage_kind_name(c.kind));
    if (c.bound >= 0) text += ", bound " + std::to_string(c.bound);
    text += c.complete ? ", complete" : ", not complete";
    return text;
  }

  std::string elapsed() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, run_.elapsed_s < 100 ? "%.2f s" : "%.0f s", run_.elapsed_s);
    return buf;
  }

  void write_warnings() {
    for (const std::string& w : run_.warnings) out_ += "warning: " + w + "\n";
    if (run_.cut_executions != 0)
      out_ += "warning: " + cut_executions_warning(run_.cut_executions, run_.max_steps) + "\n";
  }

  // A signal stopped the search (weft merge rewrites this line with the merged count).
  void write_interrupted() {
    if (run_.interrupted.empty()) return;
    out_ += interrupted_line(run_.executions, run_.interrupted) + "\n";
  }

  void write_sync_only() {
    if (!run_.instrumented) {
      out_ +=
          "note: only synchronisation calls were scheduling points (memory accesses not "
          "visible); build with weft's instrumentation to see them\n";
    }
  }

  // The run: and coverage: lines stay uncoloured: weft merge rewrites them.
  void write_summary() {
    out_ += "run: strategy " + run_.strategy + ", seed " + std::to_string(run_.seed) + ", " +
            count(run_.executions, "execution") + " in " + elapsed() + ", " +
            (run_.complete ? "complete" : "not complete") + "\n";
    // Per-worker details on lines of their own.
    for (const std::string& line : coverage_lines("coverage: " + coverage_text()))
      out_ += line + "\n";
    write_interrupted();
    write_sync_only();
    write_warnings();
  }

  void write_no_bug() {
    std::string line = "no bug found in " + count(run_.executions, "execution") + " (" +
                       run_.strategy + ", seed " + std::to_string(run_.seed) + ", " +
                       (run_.complete              ? "complete"
                        : run_.interrupted.empty() ? "budget"
                                                   : "interrupted");
    if (!run_.coverage.summary.empty()) line += "; " + run_.coverage.summary;
    for (const std::string& part : coverage_lines(line + ")")) out_ += part + "\n";
    write_interrupted();
    write_sync_only();
    write_warnings();
  }

  const RunRecord& run_;
  Symbolizer& sym_;
  const TextOptions& options_;
  Paint paint_;
  std::string cwd_;
  std::string out_;
};

}  // namespace

std::string format_text(const RunRecord& run, Symbolizer& symbolizer, const TextOptions& options) {
  const std::string text = TextWriter(run, symbolizer, options).write();
  // A tool error stays one line, whatever the width: scripts grep for it whole.
  const std::size_t error_end = run.error.empty() ? 0 : text.find('\n') + 1;
  return text.substr(0, error_end) + fit_lines(text.substr(error_end), options.width);
}

}  // namespace weft
