#include "explore/execution_child.hpp"

#include <link.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "detect/crash_handler.hpp"
#include "detect/watchdog.hpp"
#include "runtime/controller.hpp"
#include "runtime/instrumented_code.hpp"

namespace weft::explorer {
namespace {

SharedHeader* g_header = nullptr;  // this execution's (install_child_detectors)

// The program's writable data, its globals (find_program_data()).
constexpr std::size_t kDataRanges = 8;
constexpr std::uintptr_t kMostData = 16 << 20;  // searched for pointers, at most
rt::DataRange g_data[kDataRanges];
std::size_t g_ndata = 0;
bool g_data_found = false;

// The execution ends: with a bug, the threads' frames and the global pointers to heap
// blocks go to the report (their names). Async-signal-safe (a crash's handler calls it).
[[noreturn]] void child_finish() {
  rt::Controller* c = rt::Controller::active();
  if (g_header != nullptr && c != nullptr && g_header->bug.written()) {
    c->note_frames(g_header->thread_notes);
    g_header->allocations.note_held(g_data, g_ndata);
  }
  _exit(0);
}

// Two races between the same two code locations (in either order).
bool same_locations(const DataRace& a, const DataRace& b) {
  return (a.earlier.pc == b.earlier.pc && a.later.pc == b.later.pc) ||
         (a.earlier.pc == b.later.pc && a.later.pc == b.earlier.pc);
}

// The controlled thread that crashed; it is inside weft from now on, so that what the
// handler calls (string formatting, memcpy) is not scheduled as the program's own.
ThreadId enter_runtime() {
  rt::ThreadState* s = rt::t_self;
  if (s == nullptr) return kNoThread;
  ++s->runtime_depth;
  return s->id;
}

// A fault while weft read the program's object for a call: the program's, at that call.
std::uintptr_t crash_site() {
  const rt::ThreadState* s = rt::t_self;
  return s == nullptr ? 0 : s->reading_for;
}

detect::HangTarget hang_target() {
  detect::HangTarget t;
  rt::Controller* c = rt::Controller::active();
  rt::ThreadState* holder = c == nullptr ? nullptr : c->holder();
  if (holder != nullptr) {
    t.running = true;
    t.tid = c->running_tid();
    t.thread = holder->id;
  }
  return t;
}

}  // namespace

void write_coverage(SharedHeader& h, const Coverage& cov) {
  h.coverage_bound = cov.bound;
  h.coverage_executions = cov.executions;
  h.coverage_classes = cov.classes;
  h.coverage_nodes_created = cov.nodes_created;
  h.coverage_peak_nodes = cov.peak_nodes;
  h.coverage_complete = cov.complete;
  h.coverage_kind = cov.kind;
  detect::copy_text(h.coverage_summary, sizeof h.coverage_summary, cov.summary.c_str());
  detect::copy_text(h.coverage_origin, sizeof h.coverage_origin, cov.origin.c_str());
  detect::copy_text(h.coverage_nondeterminism, sizeof h.coverage_nondeterminism,
                    cov.nondeterminism.c_str());
}

void ChildSink::on_bug(const rt::BugReport& bug) {
  detect::BugSlot& s = h_->bug;
  if (s.claim()) {
    s.kind = static_cast<int>(bug.kind);
    s.thread = bug.thread;
    s.pc = bug.pc;
    s.line = bug.line;
    detect::copy_text(s.message, sizeof s.message, bug.message.data(), bug.message.size());
    detect::copy_text(s.file, sizeof s.file, bug.file.data(), bug.file.size());
    s.nblocked = 0;
    for (const BlockedThread& b : bug.blocked)
      if (s.nblocked < detect::BugSlot::kMaxBlocked) s.blocked[s.nblocked++] = b;
    s.has_race = bug.race != nullptr;
    if (bug.race != nullptr) s.race = *bug.race;
    s.misuse = bug.misuse != nullptr ? *bug.misuse : Misuse{};
    s.publish();
  }
  if (strategy_ != nullptr) write_coverage(*h_, strategy_->coverage_with_stats());
  std::fflush(nullptr);  // what the program printed before the bug belongs in its report
  child_finish();
}

void ChildSink::on_cut(std::uint64_t steps) {
  h_->cut.store(steps, std::memory_order_release);
  child_finish();
}

void ChildSink::on_race(const DataRace& race) {
  // Each pair of locations once, across the whole exploration (the list outlives
  // executions in shared memory).
  const std::uint32_t n = h_->nraces.load(std::memory_order_relaxed);
  for (std::uint32_t i = 0; i < n; ++i)
    if (same_locations(h_->races[i].race, race)) return;
  if (n == SharedHeader::kMaxRaces) return;
  h_->races[n].race = race;
  h_->races[n].execution = h_->executions.load(std::memory_order_relaxed);
  h_->nraces.store(n + 1, std::memory_order_release);
}

void ChildSink::on_unfinished(std::span<const BlockedThread> threads) {
  std::uint32_t n = 0;
  for (const BlockedThread& b : threads)
    if (n < SharedHeader::kMaxUnfinished) h_->unfinished[n++] = b;
  h_->nunfinished = n;
}

std::vector<Event> unfinished_steps(const SharedHeader& h) {
  std::vector<Event> out(std::min(h.nunfinished, SharedHeader::kMaxUnfinished));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].thread = h.unfinished[i].thread;
    out[i].op = h.unfinished[i].op;
  }
  return out;
}

Trace region_trace(SharedRegion& region, std::vector<Event>* unfinished) {
  const SharedHeader& h = region.header();
  *unfinished = unfinished_steps(h);
  return Trace(region.events(), std::min<std::uint64_t>(h.steps.load(), region.max_events()),
               *unfinished);
}

void ChildSink::on_tool_error(std::string_view message, std::uintptr_t pc) {
  h_->error_pc = pc;
  detect::copy_text(h_->error, sizeof h_->error, message.data(), message.size());
  child_finish();
}

void pin_to_one_cpu(int nth) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  int cpu = sched_getcpu();
  if (nth >= 0 && CPU_COUNT(&allowed) > 0) {
    // The nth allowed cpu, cyclically: parallel workers each on a cpu of their own.
    for (int k = nth % CPU_COUNT(&allowed), c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed) && k-- == 0) {
        cpu = c;
        break;
      }
  }
  if (cpu < 0 || !CPU_ISSET(cpu, &allowed)) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  sched_setaffinity(0, sizeof one, &one);
}

void find_program_data() {
  if (g_data_found) return;
  g_data_found = true;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        std::uintptr_t total = 0;
        for (int i = 0; i < info->dlpi_phnum && g_ndata < kDataRanges; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) == 0) continue;
          const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
          const std::uintptr_t size = std::min<std::uintptr_t>(ph.p_memsz, kMostData - total);
          total += size;
          if (size != 0) g_data[g_ndata++] = rt::DataRange{begin, begin + size};
        }
        return 1;  // the first object is the executable: its globals only
      },
      nullptr);
}

void install_child_detectors(SharedHeader& h, double hang_timeout_s, bool supervised) {
  g_header = &h;
  find_program_data();
  detect::install_crash_handlers(&h.bug, &child_finish, &enter_runtime);
  detect::set_crash_site(&crash_site);
  if (supervised) {  // the fork server pinned itself before forking
    detect::Watchdog::install_sampler(&h.sampled);
    return;
  }
  pin_to_one_cpu();  // before the watchdog: threads made from here on inherit it
  detect::Watchdog::start(&h.steps, &hang_target, hang_timeout_s, &h.bug, &child_finish);
}

BugRecord read_bug(SharedRegion& region, int wait_status, std::uint64_t fingerprint,
                   const std::string& strategy, std::uint64_t seed,
                   const std::vector<std::string>& points) {
  SharedHeader& h = region.header();
  BugRecord bug;
  if (h.bug.written()) {
    bug.kind = static_cast<BugKind>(h.bug.kind);
    bug.message = h.bug.message;
    bug.thread = h.bug.thread;
    bug.pc = h.bug.pc;
    for (std::uintptr_t caller : h.bug.callers)
      if (caller != 0) bug.stack.push_back(caller);
    bug.source_file = h.bug.file;
    bug.source_line = h.bug.line;
    bug.blocked.assign(h.bug.blocked, h.bug.blocked + h.bug.nblocked);
    bug.has_race = h.bug.has_race;
    bug.race = h.bug.race;
    bug.misuse = h.bug.misuse;
  } else {
    bug.kind = BugKind::kCrash;
    bug.message =
        WIFSIGNALED(wait_status)
            ? "the process was killed by signal " + std::to_string(WTERMSIG(wait_status))
            : "the process exited with status " + std::to_string(WEXITSTATUS(wait_status));
  }
  const std::uint64_t steps = std::min<std::uint64_t>(h.steps.load(), region.max_events());
  bug.step = steps;
  bug.execution = h.executions.load();
  bug.events.assign(region.events(), region.events() + steps);
  bug.schedule = region_schedule(region, fingerprint, strategy, seed, points);
  bug.thread_names = h.thread_notes.names();
  bug.thread_stacks = h.thread_notes.stacks();
  bug.thread_frames = h.thread_notes.all_frames();
  const rt::ThreadNotes& notes = h.thread_notes;
  bug.frame_memory.assign(notes.memory, notes.memory + notes.memory_used);
  bug.global_pointers = h.allocations.held_by();
  bug.allocations = h.allocations.touched_by(bug);
  return bug;
}

std::string region_schedule(SharedRegion& region, std::uint64_t fingerprint,
                            const std::string& strategy, std::uint64_t seed,
                            const std::vector<std::string>& points) {
  const std::uint64_t n =
      std::min<std::uint64_t>(region.header().decisions.load(), region.max_decisions());
  Schedule s;
  s.fingerprint = fingerprint;
  s.strategy = strategy;
  s.seed = seed;
  s.points = points;
  s.decisions.assign(region.decisions(), region.decisions() + n);
  return encode_schedule(s);
}

std::string with_options(const std::string& text,
                         const std::vector<std::pair<std::string, std::string>>& options,
                         std::uint64_t steps) {
  Schedule s;
  std::string error;
  if (text.empty() || !decode_schedule(text, &s, &error, max_decisions_for(steps))) return text;
  s.records_options = true;
  s.options = options;
  return encode_schedule(s);
}

BugRecord race_record(const RaceSlot& slot, std::string message) {
  BugRecord r;
  r.kind = BugKind::kDataRace;
  r.message = std::move(message);
  r.has_race = true;
  r.race = slot.race;
  r.thread = slot.race.later.thread;
  r.pc = slot.race.later.pc;
  r.execution = slot.execution;
  return r;
}

std::string join_points(const std::vector<std::string>& points) {
  std::string joined;
  for (const std::string& p : points) joined += (joined.empty() ? "" : ",") + p;
  return joined;
}

std::vector<std::string> split_points(std::string_view joined) {
  std::vector<std::string> points;
  for (std::string_view rest = joined; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    points.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return points;
}

std::vector<std::string> point_locations(const rt::RacyPoints& racy) {
  std::vector<std::string> points;
  for (std::uintptr_t pc : racy.pcs()) points.push_back(rt::code_location(pc));
  return points;
}

std::string resolve_points(const std::vector<std::string>& points, rt::RacyPoints* racy) {
  for (const std::string& point : points) {
    const std::uintptr_t pc = rt::resolve_code_location(point);
    if (pc == 0)
      return "the schedule names code location '" + point +
             "', which is in no module of this program (recorded for another build?)";
    racy->add(pc);
  }
  return "";
}

}  // namespace weft::explorer
