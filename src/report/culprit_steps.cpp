#include "report/culprit_steps.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/vector_clock.hpp"
#include "report/wait_for.hpp"

namespace weft {
namespace {

// How many of a failing thread's last steps say what it was looking at (a predicate's
// reads before a wait, the lock around them).
constexpr std::size_t kRecentSteps = 8;

bool stuck(BugKind kind) { return kind == BugKind::kDeadlock || kind == BugKind::kHang; }

bool writes_or_releases(const Op& op) { return (op.flags & (kWrite | kRelease)) != 0; }

// The objects in memory an operation touches: its own, and a condition wait's mutex.
void add_objects(const Op& op, std::vector<std::uintptr_t>& out) {
  if (addresses_memory(op)) out.push_back(op.object);
  if (const std::uintptr_t m = cond_mutex(op); m != 0) out.push_back(m);
}

// Happens-before by dependence, forward over a trace: an event comes after its thread's
// previous one, its creation (thread-start), a joined thread's exit (thread-join), and
// every earlier access to one of its objects that conflicts with it.
class CausalClocks {
 public:
  // The clock `op` by `t` would have if it ran now (a blocked thread's pending operation).
  VectorClock clock_of(ThreadId t, const Op& op) const {
    VectorClock c = thread(t);
    c.tick(t);
    if (op.kind == OpKind::ThreadStart) join_found(c, created_, t);
    if (op.kind == OpKind::ThreadJoin || op.kind == OpKind::ThreadTryJoin)
      join_found(c, exited_, op.aux);
    std::vector<std::uintptr_t> objects;
    add_objects(op, objects);
    for (std::uintptr_t o : objects) {
      auto it = objects_.find(o);
      if (it == objects_.end()) continue;
      c.join(writes_or_releases(op) || o == cond_mutex(op) ? it->second.any : it->second.writes);
    }
    return c;
  }

  // Records `e`; returns its place in its thread's steps (1-based).
  std::uint32_t record(const Event& e) {
    VectorClock c = clock_of(e.thread, e.op);
    std::vector<std::uintptr_t> objects;
    add_objects(e.op, objects);
    for (std::uintptr_t o : objects) {
      Clocks& k = objects_[o];
      k.any.join(c);
      if (writes_or_releases(e.op) || o == cond_mutex(e.op)) k.writes.join(c);
    }
    if (e.op.kind == OpKind::ThreadCreate) created_[e.op.aux] = c;
    if (e.op.kind == OpKind::ThreadExit) exited_[e.thread] = c;
    const std::uint32_t local = c.get(e.thread);
    threads_[e.thread] = std::move(c);
    return local;
  }

  // Thread t's clock after its last recorded step.
  VectorClock thread(ThreadId t) const {
    auto it = threads_.find(t);
    return it == threads_.end() ? VectorClock() : it->second;
  }

 private:
  struct Clocks {
    VectorClock any, writes;
  };
  static void join_found(VectorClock& c, const std::unordered_map<ThreadId, VectorClock>& m,
                         ThreadId t) {
    if (auto it = m.find(t); it != m.end()) c.join(it->second);
  }
  std::unordered_map<ThreadId, VectorClock> threads_, created_, exited_;
  std::unordered_map<std::uintptr_t, Clocks> objects_;
};

}  // namespace

std::array<std::size_t, 2> race_steps(const BugRecord& bug) {
  std::array<std::size_t, 2> steps = {kNotInTrace, kNotInTrace};
  if (!bug.has_race) return steps;
  const DataRace& r = bug.race;
  const RaceAccess* sides[2] = {&r.later, &r.earlier};
  for (std::size_t k = 0; k < 2; ++k) {
    const RaceAccess* a = sides[k];
    if (a->thread == kNoThread) continue;
    for (std::size_t i = bug.events.size(); i-- > 0;) {
      const Event& e = bug.events[i];
      if (e.thread != a->thread) continue;
      const bool same_code = a->pc != 0 && e.op.pc == a->pc;
      const bool same_place = addresses_memory(e.op) && e.op.object <= r.address &&
                              r.address < e.op.object + std::max<std::uintptr_t>(e.op.size, 1);
      if (same_code || same_place) {
        steps[k] = i;
        break;
      }
    }
  }
  return steps;
}

std::vector<bool> culprit_steps(const BugRecord& bug) {
  const std::vector<Event>& events = bug.events;
  std::vector<bool> culprit(events.size());
  for (std::size_t i : race_steps(bug))
    if (i != kNotInTrace) culprit[i] = true;
  if (events.empty() || bug.kind == BugKind::kLivelock) return culprit;

  CausalClocks clocks;
  std::vector<std::uint32_t> local(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) local[i] = clocks.record(events[i]);

  // The failing step, or every blocked thread's pending operation: their causal past, and
  // the objects they and their threads' last steps touch.
  VectorClock past;
  std::vector<std::uintptr_t> objects;
  std::vector<ThreadId> failing;
  if (stuck(bug.kind) && !bug.blocked.empty()) {
    for (const BlockedThread& b : bug.blocked) {
      past.join(clocks.clock_of(b.thread, b.op));
      add_objects(b.op, objects);
      failing.push_back(b.thread);
    }
  } else {
    past = clocks.thread(events.back().thread);  // the last step's own clock
    failing.push_back(events.back().thread);
  }
  for (ThreadId t : failing) {
    std::size_t seen = 0;
    for (std::size_t i = events.size(); i-- > 0 && seen < kRecentSteps;)
      if (events[i].thread == t) {
        add_objects(events[i].op, objects);
        ++seen;
      }
  }
  const std::unordered_set<std::uintptr_t> wanted(objects.begin(), objects.end());

  // Walking back, the first write or release of a wanted object by a thread is its last.
  std::set<std::pair<ThreadId, std::uintptr_t>> marked;
  for (std::size_t i = events.size(); i-- > 0;) {
    const Event& e = events[i];
    if (local[i] > past.get(e.thread) || !writes_or_releases(e.op)) continue;
    std::vector<std::uintptr_t> touched;
    add_objects(e.op, touched);
    for (std::uintptr_t o : touched)
      if (wanted.contains(o) && marked.emplace(e.thread, o).second) culprit[i] = true;
  }

  if (stuck(bug.kind)) {
    const std::vector<ThreadId> cycle = WaitFor(bug).in_cycles();
    for (std::size_t i = 0; i < events.size(); ++i)
      if (std::find(cycle.begin(), cycle.end(), events[i].thread) != cycle.end()) culprit[i] = true;
  }
  return culprit;
}

}  // namespace weft
