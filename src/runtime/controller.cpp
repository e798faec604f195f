#include "runtime/controller.hpp"

#include "detect/crash_handler.hpp"

#include <cxxabi.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <typeinfo>
#include <string>

#include "detect/deadlock.hpp"
#include "detect/livelock.hpp"
#include "runtime/key_registry.hpp"
#include "sys/os.hpp"
#include "runtime/signals.hpp"

namespace weft::rt {

constinit thread_local ThreadState* t_self __attribute__((tls_model("initial-exec"))) = nullptr;
std::atomic<Controller*> Controller::active_{nullptr};

Controller::Controller(const ControllerConfig& config)
    : config_(config),
      strategy_(config.strategy),
      events_(config.events),
      decisions_(config.decisions),
      races_(config.races) {
  enabled_.reserve(64);
  next_ops_.reserve(64);
  held_.reserve(64);
  fairness_.set_enabled(config.fair);
  // The mask of the thread driving in-process executions: thread 0 of each starts with it.
  os::signal_mask(SIG_SETMASK, nullptr, &driver_mask_);
  active_.store(this, std::memory_order_release);
}

Controller::~Controller() {
  clear_quarantine(false);
  active_.store(nullptr, std::memory_order_release);
}

bool Controller::signals_active() { return signals::active(); }

ThreadState* Controller::new_thread() {
  auto t = std::make_unique<ThreadState>();
  t->id = static_cast<ThreadId>(nthreads_);
  t->pending = make_op(OpKind::ThreadStart);
  threads_.push_back(std::move(t));
  ++alive_;
  return threads_[nthreads_++].get();
}

// A carrier waits for a controlled thread to run, runs it, makes itself new again, and
// waits for the next (a carrier with a custom stack size ends with its one thread). As a
// fiber it waits saved, resumed by whichever processor runs its next thread's first turn.
void* Controller::carrier_main(void* arg) {
  auto* carrier = static_cast<Carrier*>(arg);
  stack_t alt{};
  alt.ss_sp = carrier->altstack.get();
  alt.ss_size = Carrier::kAltStackSize;
  sigaltstack(&alt, nullptr);
  os::signal_mask(SIG_SETMASK, nullptr, &carrier->initial_mask);
  prctl(PR_GET_NAME, carrier->initial_name, 0, 0, 0);
  carrier->tid = os::gettid();
  const auto tcb = reinterpret_cast<std::uintptr_t>(pthread_self());
  carrier->processor.init(carrier->tid, tcb);
  Fiber& me = carrier->fiber;
  me.tcb = tcb;
  me.home = &carrier->processor;
  for (bool resumed = false;;) {
    if (!resumed) {
      // An idle carrier is no program thread: it must not take the program's signals.
      if (signals_active()) os::signal_mask(SIG_BLOCK, &signals::async_set(), nullptr);
      while (carrier->go.load(std::memory_order_acquire) == 0)
        os::futex_wait(reinterpret_cast<const std::uint32_t*>(&carrier->go), 0);
      carrier->go.store(0, std::memory_order_relaxed);
      if (carrier->quit) return nullptr;
      me.state = Fiber::State::kRunning;
      me.on = me.home;
    }
    ThreadState* self = carrier->assigned;
    self->tid = carrier->tid;
    Controller* c = active();
    c->note_stack(*self);
    ThreadState* next = nullptr;
    try {
      next = c->run_thread(self);
    } catch (abi::__forced_unwind&) {  // pthread_exit: this OS thread ends
      carrier->dead = true;
      c->carrier_parked();
      throw;
    }
    reset_carrier(carrier);
    const bool reusable = carrier->reusable;
    resumed = c->leave(carrier, next);
    if (!reusable) return nullptr;
  }
}

ThreadState* Controller::run_thread(ThreadState* self) {
  t_self = self;
  wait_baton(self);  // chosen for its ThreadStart step
  try {
    if (self->id == 0)
      (*body_)();
    else
      self->retval = self->start(self->arg);
  } catch (abi::__forced_unwind&) {  // pthread_exit: finish under control, unwind on
    pin(self);  // at home (pthread_exit did, unless cancelled inside weft): its OS thread ends
    release_baton(finish_thread(self));
    throw;
  } catch (...) {
    uncaught_exception(self);
  }
  return finish_thread(self);
}

bool Controller::leave(Carrier* carrier, ThreadState* next) {
  Fiber& me = carrier->fiber;
  if (me.pinned || !carrier->reusable) {
    me.state = Fiber::State::kBlocked;  // next, in the carrier's loop, waiting for go
    carrier_parked();
    release_baton(next);
    return false;
  }
  // The carrier idles as a saved fiber. Counted back first: once saved, nothing of this
  // execution is left to it.
  holder_.store(next, std::memory_order_release);
  carrier_parked();
  if (next == nullptr)
    park(me, &done_);
  else
    hand_over(me, next);
  return true;
}

void Controller::carrier_parked() {
  if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1)
    os::futex_wake(reinterpret_cast<const std::uint32_t*>(&busy_), 1);
}

int Controller::start_os_thread(ThreadState* t, const pthread_attr_t* attr) {
  std::size_t stack = 0;
  if (attr != nullptr) pthread_attr_getstacksize(attr, &stack);
  static const std::size_t default_stack = [] {
    pthread_attr_t defaults;
    std::size_t size = 0;
    pthread_attr_init(&defaults);
    pthread_attr_getstacksize(&defaults, &size);
    pthread_attr_destroy(&defaults);
    return size;
  }();
  const bool standard = attr == nullptr || stack == 0 || stack == default_stack;

  Carrier* carrier = nullptr;
  if (standard && !idle_.empty()) {
    carrier = idle_.back();
    idle_.pop_back();
  } else {
    auto fresh = std::make_unique<Carrier>();
    fresh->reusable = standard;
    // The OS thread is always joinable (weft reaps it); a detached attribute only changes
    // the model. Stack size and guard are kept.
    pthread_attr_t own;
    pthread_attr_init(&own);
    if (!standard) pthread_attr_setstacksize(&own, stack);
    std::size_t guard = 0;
    if (attr != nullptr && pthread_attr_getguardsize(attr, &guard) == 0)
      pthread_attr_setguardsize(&own, guard);
    int rc = os::create_thread(&fresh->os, &own, &Controller::carrier_main, fresh.get());
    pthread_attr_destroy(&own);
    if (rc != 0) return rc;
    carrier = fresh.get();
    carriers_.push_back(std::move(fresh));
  }
  t->carrier = carrier;
  t->os = carrier->os;
  // A custom stack's carrier ends with its thread: its kernel thread must run it.
  carrier->fiber.pinned = !carrier->reusable || !fiber::enabled();
  busy_.fetch_add(1, std::memory_order_relaxed);
  carrier->assigned = t;
  t->carrier_asleep = true;  // woken by pass_baton
  return 0;
}

void Controller::run_execution(const std::function<void()>& body) {
  body_ = &body;
  step_ = 0;
  ndecisions_ = 0;
  slept_ns_ = 0;
  entropy_.reseed(kEntropySeed);
  last_ = kNoThread;
  threads_.clear();
  nthreads_ = 0;
  alive_ = 0;
  unjoined_ = 0;
  mutexes.reset();
  rwlocks.reset();
  waits.reset();
  semaphores.reset();
  barriers.reset();
  onces.reset();
  destroyed.reset();
  benign_.clear();
  fairness_.reset();
  clear_quarantine(false);
  if (races_ != nullptr) races_->reset();
  clear_notes();
  hb_steps_ = 0;
  done_.store(0, std::memory_order_relaxed);
  if (config_.steps_out) config_.steps_out->store(0, std::memory_order_relaxed);
  if (config_.decisions_out) config_.decisions_out->store(0, std::memory_order_relaxed);
  idle_.clear();
  for (auto& c : carriers_) idle_.push_back(c.get());

  ThreadState* main = new_thread();
  main->program_mask = driver_mask_;
  if (start_os_thread(main, nullptr) != 0)
    config_.sink->on_tool_error("cannot create a thread (pthread_create failed)");
  ThreadState* first = pick();
  // While the execution runs, its signals are its threads' (signals.hpp), not the driver's.
  sigset_t driver_mask;
  const bool discipline = signals_active();
  if (discipline) os::signal_mask(SIG_BLOCK, &signals::async_set(), &driver_mask);
  release_baton(first);
  while (done_.load(std::memory_order_acquire) == 0)
    os::futex_wait(reinterpret_cast<const std::uint32_t*>(&done_), 0);
  if (discipline) os::signal_mask(SIG_SETMASK, &driver_mask, nullptr);
  // Every carrier must be back (its thread's last steps run after the baton moved on).
  for (std::uint32_t b; (b = busy_.load(std::memory_order_acquire)) != 0;)
    os::futex_wait(reinterpret_cast<const std::uint32_t*>(&busy_), b);
  // Carriers whose thread exited with pthread_exit, or that had a custom stack, end here:
  // no OS thread outlives its execution unaccounted for.
  for (auto it = carriers_.begin(); it != carriers_.end();) {
    if ((*it)->dead || !(*it)->reusable) {
      os::join_thread((*it)->os, nullptr);
      it = carriers_.erase(it);
    } else {
      ++it;
    }
  }
  holder_.store(nullptr, std::memory_order_release);
  body_ = nullptr;
}

bool Controller::end_carriers() {
  for (std::uint32_t i = 1; i < nthreads_; ++i)
    if (!threads_[i]->finished) return false;
  for (std::uint32_t b; (b = busy_.load(std::memory_order_acquire)) != 0;)
    os::futex_wait(reinterpret_cast<const std::uint32_t*>(&busy_), b);
  for (auto& c : carriers_) {
    c->quit = true;
    c->go.store(1, std::memory_order_release);
    os::futex_wake(reinterpret_cast<const std::uint32_t*>(&c->go), 1);
    os::join_thread(c->os, nullptr);
  }
  carriers_.clear();
  idle_.clear();
  return true;
}

void Controller::reach(const Deadline& deadline) {
  timespec now;
  if (!deadline.timed || !VirtualClock::enabled ||
      !VirtualClock::read(deadline.clock, virtual_ns(), &now))
    return;
  const std::int64_t now_ns = static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  if (deadline.ns > now_ns) sleep_for(static_cast<std::uint64_t>(deadline.ns - now_ns));
}

Deadline Controller::deadline_after(std::uint64_t ns) const {
  timespec now;
  if (!VirtualClock::read(CLOCK_MONOTONIC, virtual_ns(), &now)) return Deadline::never();
  Deadline d = Deadline::at(CLOCK_MONOTONIC, &now);
  d.ns += static_cast<std::int64_t>(ns);
  return d;
}

Op Controller::offered(const ThreadState& t) const {
  Op op = t.pending;
  bool fails = false;
  switch (op.kind) {
    // (Not an errorcheck relock: it is rare, and a lookup per lock is not.)
    case OpKind::MutexTryLock: fails = mutexes.would_fail(op.object, t.id); break;
    case OpKind::RwTryReadLock: fails = !rwlocks.can_read(op.object); break;
    case OpKind::RwTryWriteLock: fails = !rwlocks.can_write(op.object); break;
    case OpKind::SemTryWait: fails = !semaphores.can_wait(op.object); break;
    default: break;
  }
  if (fails) op.flags &= static_cast<std::uint8_t>(~kWrite);
  return op;
}

void Controller::entropy(void* out, std::size_t n) {
  auto* bytes = static_cast<unsigned char*>(out);
  std::uint64_t r = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 8 == 0) r = entropy_.next();
    bytes[i] = static_cast<unsigned char>(r >> (8 * (i % 8)));
  }
}

void Controller::adopt_main_thread() {
  ThreadState* main = new_thread();
  main->os = pthread_self();
  main->adopted = true;
  main->program_mask = driver_mask_;  // this thread's: the Controller was made on it
  main->tid = os::gettid();
  main_processor_.init(main->tid, reinterpret_cast<std::uintptr_t>(main->os));
  main_fiber_.tcb = main_processor_.tcb;
  main_fiber_.home = main_fiber_.on = &main_processor_;
  main_fiber_.state = Fiber::State::kRunning;
  main_fiber_.pinned = !fiber::enabled();
  clear_quarantine(false);
  benign_.clear();
  if (races_ != nullptr) races_->reset();
  clear_notes();
  t_self = main;
  note_stack(*main);
  holder_.store(main, std::memory_order_release);
  publish_holder(*main, main->tid);
  ThreadState* first = pick();  // thread 0's ThreadStart: the only choice
  (void)first;
}

void Controller::note_stack(const ThreadState& t) {
  if (config_.thread_notes == nullptr) return;
  ThreadStack s;
  os::thread_stack(&s.lo, &s.hi);
  config_.thread_notes->set_stack(t.id, s);
}

void Controller::clear_notes() {
  if (config_.thread_notes != nullptr) config_.thread_notes->clear();
  if (config_.allocations != nullptr) config_.allocations->clear();
}

bool Controller::enabled(const ThreadState& t) const {
  const Op& op = t.pending;
  switch (op.kind) {
    case OpKind::ThreadJoin: {
      // A cancellation point: a cancelled joiner goes on, to exit.
      return (op.aux < nthreads_ && threads_[op.aux]->finished) || t.cancelling();
    }
    case OpKind::MutexLock: return mutexes.can_lock(op.object, t.id);
    case OpKind::RwReadLock: return rwlocks.can_read(op.object);
    case OpKind::RwWriteLock: return rwlocks.can_write(op.object);
    case OpKind::CondWake:
      // Cancelled while waiting: it reacquires the mutex, then exits.
      return (t.woken || t.cancelling()) && mutexes.can_lock(t.wait_mutex, t.id);
    case OpKind::SemWait: return semaphores.can_wait(op.object) || t.cancelling();
    case OpKind::BarrierPass: return barriers.passed(op.object, t.wait_generation);
    case OpKind::OnceEnter: return onces.phase(op.object) != OnceModel::Phase::kRunning;
    case OpKind::FutexWoken: return t.woken;
    case OpKind::FdWait: {
      // A pipe or socket another controlled thread may feed: ready now, or not yet.
      if (!t.poll_set.empty()) return os::any_ready(t.poll_set.data(), t.poll_set.size());
      pollfd p{static_cast<int>(op.object - 1), static_cast<short>(op.aux), 0};
      return os::any_ready(&p, 1);
    }
    default: return true;
  }
}

// A timed wait may complete by timing out whenever its time could have passed: at once
// when nothing else can run, and with explore_timeouts otherwise too, as a choice (a
// thread that was not enabled, offered to the strategy) that fairness counts as a yield.
bool Controller::can_time_out(const ThreadState& t) const {
  if (!t.timed || t.finished) return false;
  if (t.pending.kind == OpKind::CondWake) return mutexes.can_lock(t.wait_mutex, t.id);
  return true;
}

bool Controller::can_wake_spuriously(const ThreadState& t) const {
  if (!config_.spurious_wakeups || t.finished || t.woken) return false;
  if (t.pending.kind == OpKind::CondWake) return mutexes.can_lock(t.wait_mutex, t.id);
  return t.pending.kind == OpKind::FutexWoken;
}

void Controller::flush_steps() {
  for (; hb_steps_ < step_; ++hb_steps_) {
    const Event& e = events_[hb_steps_];
    if (!is_memory_access(e.op.kind) && e.op.kind != OpKind::Fence)
      races_->step(e, threads_[e.thread]->wait_mutex);
  }
}

void Controller::detect_race(ThreadState* self, const Op& op, std::size_t size, bool keep) {
  flush_steps();
  DataRace race;
  const bool raced = op.kind == OpKind::Free
                         ? races_->freed(self->id, op.object, size, op.pc, &race, keep)
                     : op.kind != OpKind::Read && op.kind != OpKind::Write
                         ? races_->atomic(self->id, op, &race)
                         : races_->access(self->id, op.object, size, op.writes(), op.pc, &race);
  if (!raced) return;
  if (race.earlier.thread == detect::RaceDetector::kFreedThread) use_after_free(self, op, race);
  for (const auto& [begin, end] : benign_)
    if (race.address < end && begin < race.address + std::max<std::size_t>(size, 1)) return;
  if (!config_.races_fail) {
    config_.sink->on_race(race);
    return;
  }
  const auto side = [](const RaceAccess& a) {
    return std::string(a.write ? "write" : "read") + " of " + std::to_string(a.size) +
           (a.size == 1 ? " byte" : " bytes") + " by thread " + std::to_string(a.thread);
  };
  // (No address: it differs between runs; the report shows it with the variable.)
  std::string msg = side(race.later) + " races with an earlier " + side(race.earlier);
  BugReport bug;
  bug.kind = BugKind::kDataRace;
  bug.message = msg;
  bug.thread = self->id;
  bug.pc = op.pc;
  bug.race = &race;
  fail(bug);
}

ThreadState* Controller::pick() {
  if (races_ != nullptr) flush_steps();
  note_value_after();
  enabled_.clear();
  next_ops_.clear();
  alternates_.clear();
  bool unfinished = false;
  for (std::size_t i = 0; i < nthreads_; ++i) {
    ThreadState& t = *threads_[i];
    if (t.finished) continue;
    unfinished = true;
    // A create names the thread it makes: the next id, whoever creates first (two pending
    // creates name the same one, and so depend on each other, as they do).
    if (t.pending.kind == OpKind::ThreadCreate)
      t.pending.aux = static_cast<std::uint32_t>(nthreads_);
    if (enabled(t)) {
      enabled_.push_back(t.id);
      next_ops_.push_back(offered(t));
    } else if (can_time_out(t) || can_wake_spuriously(t)) {
      alternates_.push_back(t.id);  // offered below as the options say
    }
  }
  bool timing_out = false;
  if (enabled_.empty()) {
    if (!unfinished) return nullptr;
    std::vector<detect::StuckThread> blocked;
    for (std::size_t i = 0; i < nthreads_; ++i)
      if (const ThreadState& t = *threads_[i]; !t.finished)
        blocked.push_back({t.id, can_time_out(t), t.pending.kind == OpKind::FdWait});
    for (ThreadId id : detect::unblocked_when_none_enabled(blocked)) {
      enabled_.push_back(id);
      next_ops_.push_back(threads_[id]->pending);
    }
    if (enabled_.empty()) {
      BugReport bug;
      bug.kind = BugKind::kDeadlock;
      bug.blocked = blocked_threads();
      std::string msg = detect::describe_deadlock(wait_edges());
      bug.message = msg;
      fail(bug);
    }
    timing_out = true;
  } else {
    std::size_t kept = 0;
    for (ThreadId id : alternates_) {
      const ThreadState& t = *threads_[id];
      if (!(config_.explore_timeouts && can_time_out(t)) && !can_wake_spuriously(t)) continue;
      alternates_[kept++] = id;
      enabled_.push_back(id);
      next_ops_.push_back(t.pending);
    }
    alternates_.resize(kept);
  }
  if (step_ >= config_.max_steps) {
    if (config_.cut_long_executions && progressing()) config_.sink->on_cut(config_.max_steps);
    livelock();
  }
  if (!timing_out)
    fairness_.filter(enabled_, next_ops_, held_);
  else
    alternates_.clear();  // nothing else could run: not a choice, the time just passed
  bool last_enabled = false;
  if (last_ != kNoThread)  // (a wait it just began is not enabled, even if offered)
    for (ThreadId e : enabled_)
      if (e == last_ && std::find(alternates_.begin(), alternates_.end(), e) == alternates_.end())
        last_enabled = true;
  bool in_region = false;
  if (last_enabled && config_.no_preempt != nullptr && enabled_.size() > 1 &&
      in_no_preempt_code(*threads_[last_])) {
    // Inside code treated as atomic: the running thread goes on, as if alone.
    next_ops_ = {offered(*threads_[last_])};
    enabled_ = {last_};
    in_region = true;
  }

  SchedulingPoint p;
  p.step = step_;
  p.current = last_;
  p.current_enabled = last_enabled && !timing_out;
  p.enabled = enabled_;
  p.next_ops = next_ops_;
  p.thread_count = nthreads_;
  p.regions = config_.no_preempt != nullptr;
  p.in_region = in_region;
  const ThreadId chosen = strategy_->choose(p);
  if (!p.is_enabled(chosen)) {
    std::string msg = "strategy chose thread " + std::to_string(chosen) + " at step " +
                      std::to_string(step_) + ", which is not enabled";
    config_.sink->on_tool_error(msg);
  }
  if (ndecisions_ >= config_.decision_capacity) config_.sink->on_tool_error("decision buffer full");
  decisions_[ndecisions_++] = Decision{Decision::kThread, chosen};

  ThreadState* next = threads_[chosen].get();
  Event& e = events_[step_];
  e.thread = chosen;
  e.flags = (last_enabled && chosen != last_) ? kPreemption : 0;
  if (in_region) e.flags |= kInRegion;
  e.enabled = static_cast<std::uint8_t>(enabled_.size() > 255 ? 255 : enabled_.size());
  e.op = next->pending;
  e.values = 0;
  next->caller_frames(e.callers);
  const bool alternate =
      std::find(alternates_.begin(), alternates_.end(), chosen) != alternates_.end();
  if ((timing_out && next->pending.kind != OpKind::FdWait) || alternate) {
    // The wait ends without its condition: by its timeout when it has one, else spuriously.
    if (can_time_out(*next) && (timing_out || config_.explore_timeouts)) {
      next->timed_out = true;
      e.flags |= kTimedOut;
    } else {
      waits.remove(next->pending.object, next);
      next->woken = true;
      e.flags |= kSpurious;
    }
  }
  if (!timing_out && fairness_.on_step(chosen, alternate ? make_op(OpKind::Yield) : next->pending,
                                       enabled_, held_)) {
    e.flags |= kYielded;
  }
  ++step_;
  last_ = chosen;
  if (config_.steps_out) config_.steps_out->store(step_, std::memory_order_relaxed);
  if (config_.decisions_out) config_.decisions_out->store(ndecisions_, std::memory_order_relaxed);
  return next;
}

std::size_t Controller::choose_value(std::size_t n) {
  if (n <= 1) return 0;
  std::size_t v = strategy_->choose_value(n);
  if (v >= n) config_.sink->on_tool_error("strategy chose a value out of range");
  if (ndecisions_ >= config_.decision_capacity) config_.sink->on_tool_error("decision buffer full");
  decisions_[ndecisions_++] = Decision{Decision::kValue, static_cast<std::uint32_t>(v)};
  if (config_.decisions_out) config_.decisions_out->store(ndecisions_, std::memory_order_relaxed);
  return v;
}

bool Controller::first_turn(ThreadState* next) {
  if (!next->carrier_asleep) return false;
  next->carrier_asleep = false;
  next->baton.store(1, std::memory_order_relaxed);  // run_thread's wait_baton finds it set
  return true;
}

std::atomic<std::uint32_t>* Controller::wake_word(ThreadState* next) {
  Fiber& to = fiber_of(*next);
  const bool first = first_turn(next);
  if (to.state == Fiber::State::kSaved) {
    to.home->resume = &to;
    return &to.home->wake;
  }
  return first ? &next->carrier->go : &next->baton;
}

void Controller::release_baton(ThreadState* next) {
  holder_.store(next, std::memory_order_release);
  if (next == nullptr) {
    fiber::set_and_wake(&done_);
    return;
  }
  // Said here too, for a watchdog in another process: on a loaded machine `next` may take
  // long to wake and say it itself (a thread not started yet has no kernel id to give).
  if (next->tid != 0) publish_holder(*next, next->tid);
  fiber::set_and_wake(wake_word(next));
}

void Controller::park(Fiber& me, std::atomic<std::uint32_t>* word) {
  Processor* p = me.on;
  p->after_park = word;
  me.state = Fiber::State::kSaved;
  // Pending signals wait for a thread that runs (signals.hpp).
  if (signals_active()) os::signal_mask(SIG_BLOCK, &signals::async_set(), nullptr);
  fiber::switch_to(&me.sp, p->park_sp, p->tcb);
}

void Controller::resumed(ThreadState* self) {
  if (signals_active()) os::signal_mask(SIG_SETMASK, &self->program_mask, nullptr);
  publish_holder(*self, fiber_of(*self).on->tid);
}

void Controller::wait_baton(ThreadState* self) {
  // A handler must not run on a thread that is not the one weft chose (signals.hpp).
  const bool discipline = signals_active();
  if (discipline) os::signal_mask(SIG_BLOCK, &signals::async_set(), nullptr);
  // No spinning before sleeping: measured with `make bench` on 2 cores, any spin (30 to
  // 20000 pauses) made executions slower, the spinner taking the core the next thread
  // needed.
  while (self->baton.load(std::memory_order_acquire) == 0)
    os::futex_wait(reinterpret_cast<const std::uint32_t*>(&self->baton), 0);
  self->baton.store(0, std::memory_order_relaxed);
  // Pending signals are handled here, by the thread that runs, at its scheduling point.
  if (discipline) os::signal_mask(SIG_SETMASK, &self->program_mask, nullptr);
  // The runner says who it is itself: only it surely knows its kernel thread id by now.
  publish_holder(*self, fiber_of(*self).on->tid);
}

bool Controller::can_resume_here(const Fiber& me, const ThreadState& next) {
  const Fiber& to = fiber_of(next);
  return !me.pinned && !to.pinned && to.state == Fiber::State::kSaved && user_switching();
}

void Controller::resume_here(Fiber& me, ThreadState* next) {
  Fiber& to = fiber_of(*next);
  Processor* p = me.on;
  first_turn(next);
  to.on = p;
  to.state = Fiber::State::kRunning;
  me.state = Fiber::State::kSaved;
  publish_holder(*next, p->tid);
  fiber::switch_to(&me.sp, to.sp, to.tcb);
}

void Controller::hand_over(Fiber& me, ThreadState* next) {
  if (can_resume_here(me, *next)) {
    resume_here(me, next);
    return;
  }
  if (next->tid != 0) publish_holder(*next, next->tid);
  park(me, wake_word(next));
}

void Controller::switch_to(ThreadState* self, ThreadState* next) {
  Fiber& me = fiber_of(*self);
  if (me.pinned) {  // waits in the kernel, at home
    me.state = Fiber::State::kBlocked;
    release_baton(next);
    wait_baton(self);
    me.state = Fiber::State::kRunning;
    return;
  }
  holder_.store(next, std::memory_order_release);
  hand_over(me, next);
  resumed(self);
}

void Controller::pin(ThreadState* t) {
  Fiber& f = fiber_of(*t);
  if (f.pinned) return;
  f.pinned = true;
  // A saved fiber is resumed at home when next chosen (wake_word); a running one away
  // from home goes there now: its kernel thread, parked (it runs no fiber but its own),
  // resumes it.
  if (f.state != Fiber::State::kRunning || f.on == f.home) return;
  f.home->resume = &f;
  park(f, &f.home->wake);
  resumed(t);
}

bool Controller::spin_window(ThreadState* self, const Op& op) {
  if (self->unsynced == kPlainSpin + 1) self->nspin_objects = 0;  // the window opens
  bool poll = op.kind == OpKind::Read;
  if (poll) {
    std::uint32_t i = 0;
    while (i < self->nspin_objects && self->spin_objects[i] != op.object) ++i;
    if (i == std::size(self->spin_objects))
      poll = false;  // a fourth object
    else if (i == self->nspin_objects)
      self->spin_objects[self->nspin_objects++] = op.object;
  }
  if (!poll) {
    self->unsynced = 0;
    if (++self->long_run < kLongRun) return false;
    self->long_run = 0;
    long_run(self, op);
    return false;
  }
  if (self->unsynced < kPlainSpin + kSpinWindow) return false;
  self->unsynced = 0;
  return alive_ > 1;  // nothing to wait for when it is the only thread left
}

void Controller::long_run(ThreadState* self, const Op& op) {
  // With nobody else to run, a yield changes nothing: a loop that never ends stays
  // without steps, and the watchdog reports it.
  for (std::size_t i = 0; i < nthreads_; ++i) {
    const ThreadState& t = *threads_[i];
    if (&t != self && !t.finished && enabled(t)) {
      schedule(self, make_op(OpKind::Yield, 0, op.pc));
      return;
    }
  }
}

void Controller::schedule(ThreadState* self, const Op& op) {
  self->pending = op;
  self->unsynced = 0;
  self->long_run = 0;
  self->timed_out = false;
  ThreadState* next = pick();
  if (next != self) switch_to(self, next);
}

int Controller::create_thread(ThreadState* self, pthread_t* out, const pthread_attr_t* attr,
                              void* (*start)(void*), void* arg, std::uintptr_t pc) {
  const auto child_id = static_cast<std::uint32_t>(nthreads_);
  schedule(self, make_op(OpKind::ThreadCreate, 0, pc, 0, child_id));
  ThreadState* child = new_thread();
  child->program_mask = self->program_mask;  // as pthread_create does
  child->start = start;
  child->arg = arg;
  if (attr != nullptr) {
    int state = PTHREAD_CREATE_JOINABLE;
    pthread_attr_getdetachstate(attr, &state);
    child->detached = state == PTHREAD_CREATE_DETACHED;
  }
  if (int rc = start_os_thread(child, attr); rc != 0) {
    child->finished = true;
    --alive_;
    return rc;
  }
  if (out != nullptr) *out = child->os;
  return 0;
}

ThreadState* Controller::finish_thread(ThreadState* self) {
  // C++ thread_local destructors run under control: they may touch shared state.
  while (!self->tls_dtors.empty()) {
    auto [fn, obj] = self->tls_dtors.back();
    self->tls_dtors.pop_back();
    fn(obj);
  }
  run_key_destructors();  // ...and so do pthread key destructors
  ++self->runtime_depth;  // no RuntimeScope: this thread leaves weft for good below
  schedule(self, make_op(OpKind::ThreadExit));
  self->finished = true;
  --alive_;
  ++unjoined_;
  ThreadState* next = pick();
  t_self = nullptr;  // whatever glibc runs after this is outside the program's schedule
  // A whole program whose main thread left with pthread_exit: its last thread ending
  // ends the process with status 0, as glibc does (the pooled carriers, parked, would
  // otherwise keep it alive).
  if (next == nullptr && threads_[0]->adopted) {
    holder_.store(nullptr, std::memory_order_release);
    std::exit(0);
  }
  return next;
}

void Controller::finish_adopted_thread(ThreadState* self) {
  pin(self);  // its kernel thread ends with it
  release_baton(finish_thread(self));
}

ThreadState* Controller::find_thread(pthread_t t) const {
  for (std::size_t i = 0; i < nthreads_; ++i)
    if (pthread_equal(threads_[i]->os, t)) return threads_[i].get();
  return nullptr;
}

std::vector<BlockedThread> Controller::blocked_threads() const {
  std::vector<BlockedThread> out;
  for (std::size_t i = 0; i < nthreads_; ++i)
    if (!threads_[i]->finished) out.push_back(BlockedThread{threads_[i]->id, threads_[i]->pending});
  return out;
}

bool Controller::in_no_preempt_code(const ThreadState& t) const {
  const CodeRanges& code = *config_.no_preempt;
  if (code.contains(t.pending.pc)) return true;
  const std::uint32_t depth = t.shadow_depth < kShadowDepth ? t.shadow_depth : kShadowDepth;
  for (std::uint32_t i = 0; i < depth; ++i)
    if (code.contains(t.shadow[i])) return true;
  return false;
}

// The last steps, as the livelock verdicts (detect/livelock.hpp) read them.
std::span<const Event> Controller::last_steps() const {
  const std::uint64_t window = std::min<std::uint64_t>(step_, detect::kLivelockWindow);
  return {events_ + (step_ - window), events_ + step_};
}

bool Controller::progressing() const {
  return config_.fair && detect::progressing(last_steps(), enabled_);
}

void Controller::livelock() {
  const detect::Livelock verdict =
      detect::describe_livelock(last_steps(), config_.max_steps, config_.fair);
  BugReport bug;
  bug.kind = BugKind::kLivelock;
  bug.blocked = verdict.runners;
  bug.message = verdict.message;  // a view: the verdict lives until fail() ends the thread
  fail(bug);
}

void Controller::uncaught_exception(ThreadState* self) {
  RuntimeScope scope(self);
  std::string what = "unknown type";
  try {
    throw;
  } catch (const std::exception& e) {
    const char* type = typeid(e).name();
    int status = 0;
    char* demangled = abi::__cxa_demangle(type, nullptr, nullptr, &status);
    what = std::string(status == 0 && demangled ? demangled : type) + ": " + e.what();
    std::free(demangled);
  } catch (...) {
    if (const std::type_info* t = abi::__cxa_current_exception_type()) {
      int status = 0;
      char* demangled = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
      what = status == 0 && demangled ? demangled : t->name();
      std::free(demangled);
    }
  }
  std::string msg = "uncaught exception in thread " + std::to_string(self->id) + ": " + what;
  BugReport bug;
  bug.kind = BugKind::kUncaughtException;
  bug.message = msg;
  bug.thread = self->id;
  bug.pc = detect::current_throw_site();
  fail(bug);
}

std::vector<detect::WaitEdge> Controller::wait_edges() const {
  std::vector<detect::WaitEdge> out;
  for (std::size_t i = 0; i < nthreads_; ++i) {
    const ThreadState& t = *threads_[i];
    if (t.finished) continue;
    detect::WaitEdge w{t.id, t.pending, kNoThread};
    switch (t.pending.kind) {
      case OpKind::MutexLock: w.holder = mutexes.owner(t.pending.object); break;
      case OpKind::RwReadLock:
      case OpKind::RwWriteLock: w.holder = rwlocks.writer(t.pending.object); break;
      case OpKind::ThreadJoin: w.holder = t.pending.aux; break;
      case OpKind::CondWake:
        if (t.woken) w.holder = mutexes.owner(t.wait_mutex);
        break;
      default: break;
    }
    if (w.holder == t.id) w.holder = kNoThread;  // a thread relocking its own mutex
    out.push_back(w);
  }
  return out;
}

void Controller::misuse(ThreadState* self, std::string_view message, const Misuse& misuse,
                        std::uintptr_t pc, std::vector<BlockedThread> others) {
  BugReport bug;
  bug.kind = BugKind::kApiMisuse;
  bug.message = message;
  bug.thread = self->id;
  bug.pc = pc;
  bug.blocked = std::move(others);
  bug.misuse = &misuse;
  fail(bug);
}

namespace {

// The `size` bytes at `address` as an integer, read for the program's access at `pc`: a
// fault here is reported as that access's (ThreadState::reading_for). Inline copies: the
// program's memcpy is interposed.
std::uint64_t program_value(ThreadState* self, std::uintptr_t address, std::size_t size,
                            std::uintptr_t pc) {
  const auto* p = reinterpret_cast<const unsigned char*>(address);
  std::uint64_t v = 0;
  self->reading_for = pc;
  switch (size) {
    case 1: __builtin_memcpy(&v, p, 1); break;
    case 2: __builtin_memcpy(&v, p, 2); break;
    case 4: __builtin_memcpy(&v, p, 4); break;
    case 8: __builtin_memcpy(&v, p, 8); break;
    default:
      for (std::size_t i = 0; i < size; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  }
  self->reading_for = 0;
  return v;
}

}  // namespace

void Controller::note_value_before(ThreadState* self, const Op& op, std::size_t size) {
  if (step_ == 0) return;
  Event& e = events_[step_ - 1];
  if (e.thread != self->id || e.op.object != op.object || size == 0) return;
  e.before = program_value(self, op.object, size, op.pc);
  e.values |= kValueBefore;
}

void Controller::note_value_after() {
  if (step_ == 0) return;
  Event& e = events_[step_ - 1];
  if (!reads_value_after(e) || (e.values & kValueAfter) != 0) return;
  // Read by the thread that took the step (it calls pick() at its next point, or fails).
  ThreadState* self = e.thread < nthreads_ ? threads_[e.thread].get() : nullptr;
  if (self == nullptr || self != t_self) return;
  e.after = program_value(self, e.op.object, e.op.size, e.op.pc);
  e.values |= kValueAfter;
}

void Controller::note_frames(ThreadNotes& notes) const {
  for (std::size_t i = 0; i < nthreads_ && i < ThreadNotes::kMaxThreads; ++i) {
    const ThreadState& t = *threads_[i];
    notes.nframes[i] = 0;
    const ThreadStack stack = i < notes.used ? notes.stack[i] : ThreadStack{};
    if (t.finished || stack.hi == 0) continue;
    const std::uint32_t depth = std::min(t.shadow_depth, kShadowDepth);
    std::uint32_t n = 0;
    for (std::uint32_t d = depth; d-- > 0 && n < ThreadNotes::kMaxFrames;) {
      FrameNote f;
      f.entry = t.shadow_entry[d];
      f.pc = d + 1 < depth ? t.shadow[d + 1] : t.pending.pc;
      // The frame's return address is stored just below its CFA, between its stack
      // pointer and its caller's.
      const std::uintptr_t sp = t.shadow_sp[d];
      const std::uintptr_t limit =
          d > 0 && stack.contains(t.shadow_sp[d - 1]) ? t.shadow_sp[d - 1] : stack.hi;
      if (sp != 0 && stack.contains(sp) && sp % 8 == 0)
        for (std::uintptr_t a = sp; a + 8 <= limit; a += 8)
          if (*reinterpret_cast<const std::uintptr_t*>(a) == t.shadow[d]) {
            f.cfa = a + 8;
            break;
          }
      if (f.cfa != 0) notes.keep_memory(f, sp);
      notes.frames[i][n++] = f;
    }
    notes.nframes[i] = n;
  }
}

void Controller::fail(BugReport bug) {
  // An assertion after a write: the write was done (a failure at an access was not).
  if (bug.kind == BugKind::kAssertion) note_value_after();
  note_unfinished(bug.thread);
  config_.sink->on_bug(bug);
  __builtin_unreachable();
}

void Controller::note_unfinished(ThreadId ending) {
  std::vector<BlockedThread> left = blocked_threads();
  std::erase_if(left, [ending](const BlockedThread& b) { return b.thread == ending; });
  config_.sink->on_unfinished(left);
}

}  // namespace weft::rt
