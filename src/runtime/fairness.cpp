#include "runtime/fairness.hpp"

#include <algorithm>

namespace weft::rt {

void Fairness::reset() {
  for (PerThread& p : threads_) {
    p.waits_for.clear();  // keeps its capacity: no allocation per execution
    p.nspin_objects = 0;
    p.repeats = 0;
    p.spin_yields = 0;
  }
  waiting_ = 0;
}

void Fairness::filter(std::vector<ThreadId>& threads, std::vector<Op>& ops,
                      std::vector<ThreadId>& held) const {
  held.clear();
  if (!on_ || waiting_ == 0) return;
  auto blocked = [&](ThreadId t) {
    if (t >= threads_.size()) return false;
    for (ThreadId w : threads_[t].waits_for)
      if (std::find(threads.begin(), threads.end(), w) != threads.end()) return true;
    return false;
  };
  // Decide on the whole list first: whether a thread is held depends on who is enabled.
  for (ThreadId t : threads)
    if (blocked(t)) held.push_back(t);
  // All held cannot happen (the waits-for relation is acyclic: a thread waits only for
  // threads that have not stepped since it yielded), but never leave the strategy without
  // a choice.
  if (held.size() == threads.size()) {
    held.clear();
    return;
  }
  if (held.empty()) return;
  std::size_t out = 0;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (std::find(held.begin(), held.end(), threads[i]) != held.end()) continue;
    threads[out] = threads[i];
    ops[out] = ops[i];
    ++out;
  }
  threads.resize(out);
  ops.resize(out);
}

namespace {

// What a spin loop re-executes while it waits: loads, and read-modify-writes and try-locks
// that fail (a test-and-set or a compare-exchange on a taken lock, a trylock loop); which
// ones fail is not known before they run, so every one counts (one that succeeds is
// followed by other operations, which end the spin).
bool spin_step(OpKind k) {
  return k == OpKind::AtomicLoad || k == OpKind::Read || k == OpKind::AtomicRmw ||
         k == OpKind::AtomicCas || k == OpKind::MutexTryLock || k == OpKind::RwTryReadLock ||
         k == OpKind::RwTryWriteLock || k == OpKind::SemTryWait || k == OpKind::ThreadTryJoin;
}

// Operations that end a spin: anything but memory accesses, try-locks, yields, and locks
// taken and released (a wait, a signal, a thread operation...). A loop that locks, reads
// a flag, unlocks and sleeps polls: its sleeps are one spin's yields, or it would keep
// the CPU from the thread it waits for under every schedule (main's exit, say).
bool ends_spin(OpKind k) {
  switch (k) {
    case OpKind::MutexLock:
    case OpKind::MutexUnlock:
    case OpKind::RwReadLock:
    case OpKind::RwWriteLock:
    case OpKind::RwUnlock:
    case OpKind::HbRelease:
    case OpKind::HbAcquire:  // annotations beside a polled flag
      return false;
    default:
      return !is_memory_access(k) && !spin_step(k) && k != OpKind::Fence && k != OpKind::Yield &&
             k != OpKind::Sleep;
  }
}

}  // namespace

bool Fairness::spinning(PerThread& p, const Op& op) {
  if (!spin_step(op.kind)) {
    p.nspin_objects = 0;
    p.repeats = 0;
    return false;
  }
  for (std::size_t i = 0; i < p.nspin_objects; ++i) {
    if (p.spin_objects[i] == op.object) {
      if (++p.repeats < kSpinRepeats) return false;
      p.repeats = 0;
      return true;
    }
  }
  if (p.nspin_objects == kSpinObjects) {  // reads move on: not a loop over a few objects
    p.nspin_objects = 0;
    p.repeats = 0;
  }
  p.spin_objects[p.nspin_objects++] = op.object;
  return false;
}

bool Fairness::on_step(ThreadId t, const Op& op, const std::vector<ThreadId>& enabled,
                       const std::vector<ThreadId>& held) {
  if (!on_) return false;
  if (t >= threads_.size()) threads_.resize(t + 1);
  if (waiting_ != 0) {
    // t made progress: whoever waited for it no longer does.
    for (PerThread& p : threads_) {
      auto it = std::find(p.waits_for.begin(), p.waits_for.end(), t);
      if (it == p.waits_for.end()) continue;
      *it = p.waits_for.back();
      p.waits_for.pop_back();
      waiting_ -= p.waits_for.empty();
    }
  }
  PerThread& self = threads_[t];
  const bool explicit_yield = op.kind == OpKind::Yield || op.kind == OpKind::Sleep;
  const bool yield = explicit_yield || spinning(self, op);
  if (!yield) {
    if (ends_spin(op.kind)) self.spin_yields = 0;
    return false;
  }
  if (explicit_yield) {
    self.nspin_objects = 0;
    self.repeats = 0;
  }
  if (++self.spin_yields <= kFreeYields) return true;
  const bool was_waiting = !self.waits_for.empty();
  self.waits_for.clear();
  for (const std::vector<ThreadId>* set : {&enabled, &held})
    for (ThreadId e : *set)
      if (e != t) self.waits_for.push_back(e);
  waiting_ += !self.waits_for.empty();
  waiting_ -= was_waiting;
  return true;
}

}  // namespace weft::rt
