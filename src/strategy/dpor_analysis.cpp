#include "strategy/dpor_analysis.hpp"

#include <algorithm>

#include "strategy/dependence.hpp"

namespace weft {

void DporAnalysis::join(std::uint32_t* into, std::size_t step) {
  const std::uint32_t* from = clock(step);
  for (std::size_t u = 0; u < threads_; ++u) into[u] = std::max(into[u], from[u]);
}

namespace {

// Steps that wait for another thread's release (a lock, a semaphore, a join, ...).
bool waits_for_release(OpKind k) {
  switch (k) {
    case OpKind::MutexLock:
    case OpKind::RwReadLock:
    case OpKind::RwWriteLock:
    case OpKind::SemWait:
    case OpKind::CondWake:
    case OpKind::BarrierPass:
    case OpKind::OnceEnter:
    case OpKind::FutexWait:
    case OpKind::FutexWoken:
    case OpKind::ThreadJoin:
    case OpKind::ThreadStart: return true;
    default: return false;
  }
}

}  // namespace

// The mutex a step locks, unlocks or waits with (0: none).
std::uintptr_t DporAnalysis::mutex_of(const Op& op) {
  switch (op.kind) {
    case OpKind::MutexLock:
    case OpKind::MutexTryLock:
    case OpKind::MutexUnlock: return op.object;
    case OpKind::CondWait:
    case OpKind::CondWake: return cond_mutex(op);
    default: return 0;
  }
}

ThreadId DporAnalysis::track_holder(KeyState& ks, const Event& e) {
  const bool took = (e.flags & (kFailed | kTimedOut)) == 0;
  const ThreadId before = ks.holder;
  switch (e.op.kind) {
    case OpKind::MutexLock:
    case OpKind::MutexTryLock:
      if (!took) break;
      if (ks.holder == e.thread) {
        ++ks.depth;
      } else {
        ks.holder = e.thread;
        ks.depth = 1;
      }
      break;
    case OpKind::MutexUnlock:
      if (took && ks.holder == e.thread && --ks.depth == 0) ks.holder = kNoThread;
      break;
    case OpKind::CondWait:  // the wait releases the mutex; the wake takes it back
      ks.holder = kNoThread;
      ks.depth = 0;
      break;
    default:  // CondWake
      ks.holder = e.thread;
      ks.depth = 1;
      break;
  }
  return before;
}

bool DporAnalysis::unavailable_at(std::size_t a, const Event& ej) const {
  if (ej.flags & (kFailed | kTimedOut | kSpurious)) return false;
  const Event& ea = (*trace_)[a];
  const bool failed = (ea.flags & kFailed) != 0;
  switch (ej.op.kind) {
    case OpKind::MutexLock: return holder_at_[a] != kNoThread && holder_at_[a] != ej.thread;
    case OpKind::SemWait: return failed && ea.op.kind == OpKind::SemTryWait;
    case OpKind::RwWriteLock:  // any failed try: a writer, or readers, held it
      return failed &&
             (ea.op.kind == OpKind::RwTryReadLock || ea.op.kind == OpKind::RwTryWriteLock);
    case OpKind::RwReadLock:  // a failed read try: a writer held it
      return failed && ea.op.kind == OpKind::RwTryReadLock;
    default: return false;
  }
}

bool DporAnalysis::held_at_anchor(const KeyState& ks, std::size_t a, const Event& ej) const {
  if (ej.op.kind != OpKind::MutexLock || (ej.flags & (kFailed | kTimedOut | kSpurious)))
    return false;
  const std::size_t x = anchor(a);
  if (x == a) return false;
  // The holder before the first step on the mutex from x on is the holder at x.
  const auto s = std::lower_bound(ks.steps.begin(), ks.steps.end(), static_cast<std::uint32_t>(x));
  return s != ks.steps.end() && holder_at_[*s] != kNoThread && holder_at_[*s] != ej.thread;
}

// Where step a's thread last ran with the others free to run: a itself, or, when a was
// taken inside code run as if atomic (kInRegion), the step before the region's thread
// entered it. A race with a step of the region is reversed there.
std::size_t DporAnalysis::anchor(std::size_t a) const {
  const Trace& trace = *trace_;
  while ((trace[a].flags & kInRegion) != 0 && previous_[a] >= 0)
    a = static_cast<std::size_t>(previous_[a]);
  return a;
}

bool DporAnalysis::enabled_at(std::size_t a, ThreadId t) const {
  const auto enabled = tree_->enabled(tree_->decisions()[decision_[anchor(a)]]);
  return std::find(enabled.begin(), enabled.end(), t) != enabled.end();
}

// The immediate happens-before predecessors of step j among other threads' steps: those
// that do not happen before j's thread's state (step `before`, -1: none) nor before
// another such predecessor.
//
// A predecessor j could not have run before is looked through, to what came before it on
// the object: statically (a lock never runs where its unlock could), and, when j's thread
// was at the same state then, by whether it was enabled there (a semaphore wait is not
// enabled where the post that fed it ran). When j's thread ran other steps in between and
// j waits for a release, both are kept: the release (the two may commute) and what came
// before it (they may not); the latter do not hide earlier steps.
void DporAnalysis::predecessors(std::size_t j, const Event& ej, std::int64_t before,
                                std::vector<std::uint32_t>* out, bool with_exits) {
  const Trace& trace = *trace_;
  const ThreadId q = ej.thread;
  out->clear();
  soft_.clear();
  auto covered = [&](std::size_t a) {
    if (before >= 0 && happens_before(a, static_cast<std::size_t>(before))) return true;
    for (std::uint32_t c : *out)
      if (happens_before(a, c)) return true;
    return false;
  };
  if (ends_process(ej)) {
    // Dependent with everything: each other thread's last step before it.
    std::vector<bool> seen(threads_, false);
    for (std::size_t a = j; a-- > 0;) {
      const ThreadId t = trace[a].thread;
      if (t == q || seen[t]) continue;
      seen[t] = true;
      if (!covered(a)) out->push_back(static_cast<std::uint32_t>(a));
    }
  }
  if (ej.op.kind != OpKind::ProcessExit) {  // a failing step also races on its objects
    const std::span<const ObjectAccess> acc = accesses_of(ej);
    const std::size_t na = acc.size();
    const bool waits =
        waits_for_release(ej.op.kind) && !(ej.flags & (kTimedOut | kSpurious | kFailed));
    for (std::size_t n = 0; n < na; ++n) {
      const auto it = keys_.find(acc[n].key);
      if (it == keys_.end()) continue;
      const KeyState& ks = it->second;
      auto s = std::lower_bound(ks.steps.begin(), ks.steps.end(), static_cast<std::uint32_t>(j));
      while (s != ks.steps.begin()) {
        --s;
        const std::size_t a = *s;
        const bool writes = ks.writes[static_cast<std::size_t>(s - ks.steps.begin())] != 0;
        if (!writes && !acc[n].writes) continue;  // two reads commute
        // Every earlier access of the key happens before a write that is ordered.
        if (trace[a].thread == q || covered(a)) {
          if (writes) break;
          continue;
        }
        if (!may_be_coenabled(trace[a].op, ej)) continue;
        // j could not run where a did, so their reversal is not feasible, and a must not
        // hide the step that took what j waits for (looked past): a step another thread
        // took while it held the mutex j locks (a failed try-lock or relock, a recursive
        // lock), or a try that failed for want of what j waits for.
        if (!trace[a].op.releases() && unavailable_at(a, ej)) continue;
        if (before < static_cast<std::int64_t>(a)) {
          if (!enabled_at(a, q)) continue;
        } else if (held_at_anchor(ks, a, ej)) {
          continue;  // to the lock that took the mutex before the region began
        } else if (waits && trace[a].op.releases()) {
          soft_.push_back(static_cast<std::uint32_t>(a));
          continue;
        }
        out->push_back(static_cast<std::uint32_t>(a));
        if (writes) break;
      }
    }
    if (with_exits)
      for (std::uint32_t x : exits_)
        if (x < j && trace[x].thread != q && !covered(x)) out->push_back(x);
  }
  // Predecessors found on different objects may order each other.
  std::vector<std::uint32_t> kept;
  for (std::uint32_t c : *out) {
    bool immediate = true;
    for (std::uint32_t d : *out)
      if (d != c && happens_before(c, d)) immediate = false;
    if (immediate) kept.push_back(c);
  }
  for (std::uint32_t c : soft_)
    if (!covered(c)) kept.push_back(c);
  out->swap(kept);
}

// Every object key the trace's steps touch, sorted: what a free's block may contain.
void DporAnalysis::collect_trace_keys() {
  ObjectAccess acc[2];
  for (const Event& e : trace_->events())
    for (std::size_t a = 0, na = object_accesses(e, acc); a < na; ++a)
      trace_keys_.push_back(acc[a].key);
  std::sort(trace_keys_.begin(), trace_keys_.end());
  trace_keys_.erase(std::unique(trace_keys_.begin(), trace_keys_.end()), trace_keys_.end());
  if (trace_keys_.empty()) trace_keys_.push_back(kEverything);  // built, even if empty
}

// The objects step e touches: object_accesses(), and for a free every object in its
// block, which it writes (a use of freed memory does not commute with the free).
std::span<const ObjectAccess> DporAnalysis::accesses_of(const Event& e) {
  const std::size_t na = object_accesses(e, fixed_);
  if (e.op.kind != OpKind::Free) return {fixed_, na};
  if (trace_keys_.empty()) collect_trace_keys();
  accesses_.assign(fixed_, fixed_ + na);
  const std::uint64_t base = e.op.object, end = base + e.op.aux;
  for (auto k = std::lower_bound(trace_keys_.begin(), trace_keys_.end(), base);
       k != trace_keys_.end() && *k < end; ++k)
    if (*k != base) accesses_.push_back({*k, true});
  return accesses_;
}

// The last step of the move step a is part of: a, or the end of the region a's thread went
// on into alone (kInRegion steps follow their thread's step at once).
std::size_t DporAnalysis::move_end(std::size_t a) const {
  const Trace& trace = *trace_;
  while (a + 1 < trace.size() && trace[a + 1].thread == trace[a].thread &&
         (trace[a + 1].flags & kInRegion) != 0)
    ++a;
  return a;
}

void DporAnalysis::add_race(std::size_t i, std::size_t j, ThreadId q) {
  const Trace& trace = *trace_;
  // v: the steps after i's move that do not happen after it, then j. A move runs whole:
  // a thread whose move would run steps that happen after i's is not in v.
  const std::size_t ie = std::min(move_end(i), j);
  std::fill(first_in_v_.begin(), first_in_v_.end(), -1);
  for (std::size_t k = ie + 1; k < j; ++k) {
    const ThreadId t = trace[k].thread;
    if (first_in_v_[t] != -1 || happens_before(ie, k)) continue;
    const std::size_t ke = move_end(k);
    first_in_v_[t] = ke < j && happens_before(ie, ke) ? -2 : static_cast<std::int64_t>(k);
  }
  for (std::int64_t& f : first_in_v_)
    if (f == -2) f = -1;
  if (first_in_v_[q] < 0) first_in_v_[q] = static_cast<std::int64_t>(j);
  Race r;
  r.decision = decision_[anchor(i)];
  r.thread = q;
  r.first = static_cast<std::uint32_t>(initials_.size());
  r.before_release = trace[i].op.releases();
  auto initial = [&](ThreadId u) {
    const std::int64_t f = first_in_v_[u];
    if (f < 0) return false;
    for (std::size_t w = 0; w < threads_; ++w)
      if (w != u && first_in_v_[w] >= 0 && first_in_v_[w] < f &&
          happens_before(static_cast<std::size_t>(first_in_v_[w]), static_cast<std::size_t>(f)))
        return false;
    return true;
  };
  if (initial(q)) initials_.push_back(q);
  for (ThreadId u = 0; u < threads_; ++u)
    if (u != q && initial(u)) initials_.push_back(u);
  r.count = static_cast<std::uint32_t>(initials_.size()) - r.first;
  races_.push_back(r);
}

void DporAnalysis::analyze(const Trace& trace, const ExecutionTree& tree, std::size_t first,
                           std::size_t end_step) {
  trace_ = &trace;
  tree_ = &tree;
  races_.clear();
  initials_.clear();
  const auto records = tree.decisions();
  const std::size_t n = trace.size();
  if (first >= records.size() || n == 0) return;
  const std::size_t s0 = records[first].step;
  end_step = std::min(end_step, n);
  if (s0 >= end_step) return;

  threads_ = 0;
  for (const Event& e : trace.events()) threads_ = std::max<std::size_t>(threads_, e.thread + 1);
  for (const ExecutionTree::Record& r : records)  // threads that never ran count too
    for (ThreadId t : tree.enabled(r)) threads_ = std::max<std::size_t>(threads_, t + 1);
  decision_.assign(n, 0);
  for (std::size_t d = 0; d < records.size(); ++d)
    if (records[d].kind == Decision::kThread && records[d].step < n)
      decision_[records[d].step] = static_cast<std::uint32_t>(d);

  // Vector clocks over the dependence relation.
  clocks_.assign(n * threads_, 0);
  index_.assign(n, 0);
  previous_.assign(n, -1);
  holder_at_.assign(n, kNoThread);
  created_.assign(threads_, -1);
  first_in_v_.assign(threads_, -1);
  exits_.clear();
  for (auto& [key, ks] : keys_) {
    ks.steps.clear();
    ks.writes.clear();
    ks.last_write = -1;
    ks.reads.clear();
    ks.holder = kNoThread;
    ks.depth = 0;
  }
  std::vector<std::int64_t> last_of(threads_, -1);
  std::vector<std::uint32_t> count(threads_, 0);
  trace_keys_.clear();  // this trace's, collected at its first free (accesses_of)
  for (std::size_t k = 0; k < n; ++k) {
    const Event& e = trace[k];
    const ThreadId t = e.thread;
    std::uint32_t* c = clock(k);
    previous_[k] = last_of[t];
    if (previous_[k] >= 0) join(c, static_cast<std::size_t>(previous_[k]));
    if (ends_process(e)) {
      for (std::size_t u = 0; u < threads_; ++u)
        if (last_of[u] >= 0) join(c, static_cast<std::size_t>(last_of[u]));
      exits_.push_back(static_cast<std::uint32_t>(k));
    } else if (!exits_.empty()) {
      join(c, exits_.back());
    }
    if (e.op.kind == OpKind::ThreadCreate && e.op.aux < threads_)
      created_[e.op.aux] = static_cast<std::int64_t>(k);
    const std::span<const ObjectAccess> acc = accesses_of(e);
    const std::size_t na = acc.size();
    const std::uintptr_t mutex = mutex_of(e.op);
    for (std::size_t a = 0; a < na; ++a) {
      if (acc[a].key == kEverything) continue;
      KeyState& ks = keys_[acc[a].key];
      if (ks.last_write >= 0) join(c, static_cast<std::size_t>(ks.last_write));
      if (acc[a].writes)
        for (std::uint32_t r : ks.reads) join(c, r);
    }
    index_[k] = c[t] = ++count[t];
    for (std::size_t a = 0; a < na; ++a) {
      if (acc[a].key == kEverything) continue;
      KeyState& ks = keys_[acc[a].key];
      if (mutex != 0 && acc[a].key == mutex) holder_at_[k] = track_holder(ks, e);
      ks.steps.push_back(static_cast<std::uint32_t>(k));
      ks.writes.push_back(acc[a].writes);
      if (acc[a].writes) {
        ks.last_write = static_cast<std::int64_t>(k);
        ks.reads.clear();
      } else {
        ks.reads.push_back(static_cast<std::uint32_t>(k));
      }
    }
    last_of[t] = static_cast<std::int64_t>(k);
  }

  for (std::size_t j = s0; j < end_step; ++j) {
    const std::int64_t before = previous_[j] >= 0 ? previous_[j] : created_[trace[j].thread];
    predecessors(j, trace[j], before, &candidates_);
    for (std::uint32_t i : candidates_) add_race(i, j, trace[j].thread);
  }
  if (end_step < n) return;
  // Threads the execution ended without running again (a process exit ended them, or
  // they were left waiting): their next step races too, as last seen enabled, or as the
  // trace says when it never was (a deadlock's lock of a mutex the other thread holds
  // races with that thread's lock of it: the order that avoids the deadlock).
  std::vector<std::int64_t> pending(threads_, -1);  // decision that last offered it
  for (std::size_t d = 0; d < records.size(); ++d) {
    if (records[d].kind != Decision::kThread) continue;
    for (ThreadId t : tree.enabled(records[d]))
      if (t < threads_) pending[t] = static_cast<std::int64_t>(d);
  }
  std::vector<std::uint8_t>& done = done_;  // (a member: no allocation per execution)
  done.assign(threads_, 0);
  for (ThreadId t = 0; t < threads_; ++t) {
    if (pending[t] < 0) continue;
    const ExecutionTree::Record& r = records[static_cast<std::size_t>(pending[t])];
    if (r.choice == t || (last_of[t] >= 0 && static_cast<std::size_t>(last_of[t]) >= r.step))
      continue;  // it ran there or later
    const auto enabled = tree.enabled(r);
    const auto ops = tree.next_ops(r);
    const std::size_t at =
        static_cast<std::size_t>(std::find(enabled.begin(), enabled.end(), t) - enabled.begin());
    if (at >= ops.size()) continue;
    Event e;
    e.thread = t;
    e.op = ops[at];
    unfinished_race(e, last_of[t]);
    done[t] = 1;
  }
  for (const Event& e : trace.unfinished())
    if (e.thread < threads_ && !done[e.thread]) unfinished_race(e, last_of[e.thread]);
}

// The races of a step thread e.thread would have taken after its last step `last` (-1:
// none), at the trace's end: with the end of the process (running it first), and with
// what came before on its objects, which that end does not order it after (it never ran
// after the end). A lock blocked on a mutex whose holder then exited races with the
// holder's lock of it: the order where it takes the mutex first.
void DporAnalysis::unfinished_race(const Event& e, std::int64_t last) {
  const std::size_t n = trace_->size();
  const std::int64_t before = last >= 0 ? last : created_[e.thread];
  for (const bool with_exits : {true, false}) {
    if (!with_exits && exits_.empty()) break;
    predecessors(n, e, before, &candidates_, with_exits);
    for (std::uint32_t i : candidates_) add_race(i, n, e.thread);
  }
}

}  // namespace weft
