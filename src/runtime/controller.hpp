#pragma once
// The Controller: runs exactly one thread at a time and lets the strategy choose which.
//
// Every controlled thread is a real OS thread. The one holding the baton runs; at a
// scheduling point it announces its next operation (ThreadState::pending), the strategy
// chooses among the enabled threads, and the baton moves: in user space, the same kernel
// thread resuming the next thread's registers, where it can (fiber.hpp). Blocking is modelled: a
// thread whose pending operation cannot complete (held mutex, unsignalled condition, unfinished
// join...) is simply not enabled. The semantics of each primitive live in its model.
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/event.hpp"
#include "core/rng.hpp"
#include "core/schedule.hpp"
#include "core/strategy.hpp"
#include "detect/deadlock.hpp"
#include "detect/race_detector.hpp"
#include "runtime/allocation_log.hpp"
#include "runtime/carrier.hpp"
#include "runtime/code_ranges.hpp"
#include "runtime/counter_models.hpp"
#include "runtime/destroyed_objects.hpp"
#include "runtime/execution_sink.hpp"
#include "runtime/fairness.hpp"
#include "runtime/heap_quarantine.hpp"
#include "runtime/mutex_model.hpp"
#include "runtime/racy_points.hpp"
#include "runtime/rwlock_model.hpp"
#include "runtime/thread_notes.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/virtual_clock.hpp"
#include "runtime/wait_queue_model.hpp"

namespace weft::rt {

struct ControllerConfig {
  Strategy* strategy = nullptr;
  ExecutionSink* sink = nullptr;
  std::uint64_t max_steps = 100000;
  // An execution past max_steps whose last steps show no thread yielding or spinning, and
  // no thread starved by memory polling (Controller::progressing), is a long execution,
  // not a livelock: the sink cuts it there (ExecutionSink::on_cut) instead of reporting
  // it. For sinks that can end one execution alone (a process per execution).
  bool cut_long_executions = false;
  bool fair = true;                        // fair scheduling (fairness.hpp); off: every schedule
  const CodeRanges* no_preempt = nullptr;  // code a running thread is not preempted in
  Event* events = nullptr;                 // capacity >= max_steps + 1
  Decision* decisions = nullptr;           // capacity >= decision_capacity
  std::size_t decision_capacity = 0;
  std::atomic<std::uint64_t>* steps_out = nullptr;      // published step count (watchdog,
  std::atomic<std::uint64_t>* decisions_out = nullptr;  // crash reports)
  // Published {thread id, kernel tid} of the thread holding the baton, for a watchdog in
  // another process (the fork server).
  std::atomic<std::uint64_t>* holder_out = nullptr;
  // Which instrumented plain accesses are scheduling points; with kRacy, those at `racy`.
  PreemptOn preempt_on = PreemptOn::kAll;
  const RacyPoints* racy = nullptr;
  // Data race detection (null: off). A race is a bug when `races_fail`, otherwise it goes
  // to ExecutionSink::on_race and the execution goes on.
  detect::RaceDetector* races = nullptr;
  bool races_fail = true;
  // Condition variable and futex waits may wake with nobody waking them (POSIX allows
  // it): a choice the strategy makes, like a timeout.
  bool spurious_wakeups = false;
  // A timed wait may also time out while other threads can run, as a choice (off: only
  // when nothing else can run, i.e. timeouts are long enough for whatever others do).
  bool explore_timeouts = false;
  // What reports name threads and heap objects with (null: not recorded). Cleared at the
  // start of each execution.
  ThreadNotes* thread_notes = nullptr;
  AllocationLog* allocations = nullptr;
};

class Controller {
 public:
  explicit Controller(const ControllerConfig& config);
  ~Controller();

  // The controller of the exploration running in this process, or nullptr.
  static Controller* active() { return active_.load(std::memory_order_acquire); }

  // --- Driver side (an uncontrolled thread) -----------------------------------------
  // Runs one execution of `body` on a fresh controlled thread 0 until every controlled
  // thread has finished. Bugs do not return (see ExecutionSink).
  void run_execution(const std::function<void()>& body);
  // Whole programs: the calling thread (the process's main thread, before main) becomes
  // controlled thread 0 of a new execution, and returns holding the baton. The execution
  // ends when the process does.
  void adopt_main_thread();
  // At an adopted main thread's exit, in a process that runs executions one after another
  // (explore/runner.hpp): every carrier's OS thread ends, so that the process is left with
  // one thread. False, ending none, when another thread has not finished.
  bool end_carriers();
  std::uint64_t steps() const { return step_; }
  // Between executions: the search started over (new scheduling points).
  void set_strategy(Strategy* s) { strategy_ = s; }
  // Virtual time elapsed in this execution (see virtual_clock.hpp), and sleeping.
  std::uint64_t virtual_ns() const { return step_ * VirtualClock::kNsPerStep + slept_ns_; }
  void sleep_for(std::uint64_t ns) { slept_ns_ += ns; }
  // The program read a clock: the read itself advances virtual time
  // (VirtualClock::kNsPerRead), so that a loop polling a clock for a deadline, with no
  // scheduling point in it, still sees the deadline come.
  void clock_read() { slept_ns_ += VirtualClock::kNsPerRead; }
  // Randomness the program asks the system for (getrandom, /dev/urandom,
  // std::random_device): the same stream in every execution, so that an execution stays a
  // function of its schedule (CHESS 3.1); drawn in schedule order.
  void entropy(void* out, std::size_t n);
  std::uint64_t decision_count() const { return ndecisions_; }
  Trace trace() const { return Trace(events_, step_); }

  // --- Thread side (the baton holder) -------------------------------------------------
  // Announces `op` and returns when `self` has been chosen to perform it; the caller then
  // applies its effect (through the models) before its next scheduling point.
  void schedule(ThreadState* self, const Op& op);
  // schedule() for a blocking wait that, with a deadline, may instead time out once nothing
  // else can run. Returns true when it timed out.
  bool schedule_wait(ThreadState* self, const Op& op, const Deadline& deadline) {
    self->timed = deadline.timed;
    schedule(self, op);
    self->timed = false;
    if (self->timed_out) reach(deadline);
    return self->timed_out;
  }
  // Virtual time moves on to `deadline` (a wait that timed out): the program, reading its
  // clock, sees that the time it waited for has passed (libstdc++ decides wait_for's
  // cv_status that way). Never backwards.
  void reach(const Deadline& deadline);
  // A deadline `ns` of virtual time from now (relative timeouts).
  Deadline deadline_after(std::uint64_t ns) const;
  // An instrumented memory access (plain or atomic, or a fence) `self` is about to
  // perform: a scheduling point when the access policy says so, then race detection.
  // `size` is the access's true size (op.size saturates). Inside a RuntimeScope.
  // `check_race` false: a step only, not checked for races.
  void memory_access(ThreadState* self, const Op& op, std::size_t size, bool check_race = true) {
    if (self->mutex_internals != 0) [[unlikely]]
      return;
    if (access_is_point(op) || plain_spin(self, op)) {
      schedule(self, op);
      if (op.reads() && size <= 8) note_value_before(self, op, size);
    }
    if (check_race && tracks_memory() && !ignored(*self, op)) detect_race(self, op, size);
  }
  // AnnotateIgnoreReads/WritesBegin: the thread's plain reads or writes are not checked.
  static bool ignored(const ThreadState& t, const Op& op) {
    if ((t.ignore_reads | t.ignore_writes) == 0) return false;
    if (op.kind == OpKind::Read) return t.ignore_reads != 0;
    return op.kind == OpKind::Write && t.ignore_writes != 0;
  }
  // AnnotateBenignRaceSized: a race on [address, address + size) is not reported (nor
  // learnt as a scheduling point) in this execution.
  void benign_race(std::uintptr_t address, std::size_t size) {
    if (size != 0) benign_.push_back({address, address + size});
  }
  // Whether the race detector keeps a history of memory now.
  bool tracks_memory() const { return races_ != nullptr && nthreads_ > 1; }
  // Whether a free by a controlled thread is news: a race history, once flags, or a
  // scheduling point (a plain write is one under --preempt-on all; racy locations are
  // learnt only with a race history).
  bool tracks_frees() const {
    return tracks_memory() || !onces.empty() || (!alone() && config_.preempt_on == PreemptOn::kAll);
  }
  // `self` frees the heap block [address, address + size): a write of all of it, a
  // scheduling point as a plain write would be and checked for races (an access by
  // another thread that nothing orders with it races with it). A new object there starts
  // afresh: the block's race history and once flags go. Inside a RuntimeScope.
  // With race detection on, a block `may_keep` (a free, not a realloc's move) is held in
  // the quarantine, its words marked freed: true, and the caller must not give it back to
  // the allocator (the quarantine does, later).
  bool freeing(ThreadState* self, std::uintptr_t address, std::size_t size, std::uintptr_t pc,
               bool may_keep);
  // Before freeing(): a free of a pointer no allocation returned (misaligned, or inside a
  // freed block) or of a block already freed is a bug, and does not return.
  void check_free(ThreadState* self, std::uintptr_t address, std::uintptr_t pc);
  // Before a call on a synchronisation object (a mutex) at `address`: one in a freed block
  // is a use-after-free (the call reads and writes it), not a misuse of the object.
  void check_object_alive(ThreadState* self, std::uintptr_t address, std::size_t size,
                          std::uintptr_t pc, OpKind kind);
  // A heap block `self` allocated (the report names heap objects by their allocation).
  void allocated(ThreadState* self, std::uintptr_t address, std::size_t size, std::uintptr_t pc) {
    if (config_.allocations == nullptr || address == 0) return;
    Allocation a{address, size, step_, self->id, pc, {}};
    self->caller_frames(a.callers);
    config_.allocations->add(a);
  }
  // The program named thread `t` (pthread_setname_np).
  void thread_named(const ThreadState& t, const char* name) {
    if (config_.thread_notes != nullptr) config_.thread_notes->set_name(t.id, name);
  }
  // Data nondeterminism: a value in [0, n) chosen by the strategy and recorded.
  std::size_t choose_value(std::size_t n);
  // pthread_create under control: a ThreadCreate step, then a new controlled thread.
  int create_thread(ThreadState* self, pthread_t* out, const pthread_attr_t* attr,
                    void* (*start)(void*), void* arg, std::uintptr_t pc);
  // The end of a process's own main thread (pthread_exit): its C++ thread_local
  // destructors, a ThreadExit step, then the baton goes on and this OS thread leaves
  // weft's control. (Carriers' threads end in run_thread.)
  void finish_adopted_thread(ThreadState* self);
  // From now on thread `t` (the caller, or another) runs only on its own kernel thread
  // (fiber.hpp): what it does next belongs to that kernel thread (a signal mask, a name,
  // its end).
  void pin(ThreadState* t);
  ThreadState* find_thread(pthread_t t) const;
  // A join (or a try that succeeded) of `target` returns: its end happens before what
  // the joiner does next.
  void joined(ThreadState* target) {
    target->joined = true;
    if (target->finished) --unjoined_;
  }
  ThreadState* thread(ThreadId id) const { return threads_[id].get(); }
  std::size_t thread_count() const { return nthreads_; }
  // A bug found by the program's own thread: never returns.
  [[noreturn]] void fail(BugReport bug);
  // The value an atomic read-modify-write or store `self` just performed at `address` left
  // there (Event::after), when it was a step.
  void atomic_value_after(const ThreadState* self, std::uintptr_t address, std::uint64_t value) {
    if (step_ == 0) return;
    Event& e = events_[step_ - 1];
    if (e.thread != self->id || e.op.object != address || (e.values & kValueAfter) != 0) return;
    e.after = value;
    e.values |= kValueAfter;
  }
  // The program is about to unmap memory: the value of its last plain write is read now,
  // while it is still there.
  void before_unmap() { note_value_after(); }
  // Notes each unfinished thread's frames (the execution is ending with a bug): a report
  // names the locals on its stack from them. Async-signal-safe.
  void note_frames(ThreadNotes& notes) const;
  // The process ends now (`ending` ends it; kNoThread: none of them, a deadlock): tells
  // the sink what every other unfinished thread would do next.
  void note_unfinished(ThreadId ending);
  // `self` called `message`'s function on an object whose state makes the call undefined
  // (api-misuse) at return address `pc`; `others` are the threads blocked on it. Never
  // returns.
  [[noreturn]] void misuse(ThreadState* self, std::string_view message, const Misuse& misuse,
                           std::uintptr_t pc, std::vector<BlockedThread> others = {});
  // The unfinished threads other than `self` whose next operation, as `waiting` judges it,
  // waits on (or is inside a wait on) an object: what a destroy of it must not have.
  template <typename Waiting>
  std::vector<BlockedThread> waiters(const ThreadState* self, Waiting waiting) const {
    std::vector<BlockedThread> out;
    for (std::size_t i = 0; i < nthreads_; ++i) {
      const ThreadState& t = *threads_[i];
      if (&t != self && !t.finished && waiting(t)) out.push_back({t.id, t.pending});
    }
    return out;
  }
  // The program did something weft cannot follow: the run stops with this message.
  [[noreturn]] void tool_error(std::string_view message, std::uintptr_t pc = 0) {
    config_.sink->on_tool_error(message, pc);
    __builtin_unreachable();
  }
  // Called inside a catch handler: the exception escaped `self`'s start routine.
  [[noreturn]] void uncaught_exception(ThreadState* self);
  // Unfinished threads: an access by the only one left cannot interleave with anything.
  std::size_t alive() const { return alive_; }
  // Marks the step self just took (a trylock that failed, an atomic that changed nothing);
  // nothing when self's operation was not a step.
  void mark_last_event(const ThreadState* self, std::uint8_t flags) {
    if (step_ > 0 && events_[step_ - 1].thread == self->id) events_[step_ - 1].flags |= flags;
  }
  // The thread holding the baton (for the watchdog), or nullptr between executions, and
  // the kernel thread running it (a fiber may run on any, fiber.hpp).
  ThreadState* holder() const { return holder_.load(std::memory_order_acquire); }
  pid_t running_tid() const { return running_tid_.load(std::memory_order_relaxed); }

  MutexModel mutexes;
  RwLockModel rwlocks;
  WaitQueueModel waits;  // condition variables and futex words
  SemaphoreModel semaphores;
  BarrierModel barriers;
  OnceModel onces;
  DestroyedObjects destroyed;  // mutexes destroyed in this execution (api-misuse)

 private:
  // AnnotateBenignRaceSized ranges of this execution, [begin, end).
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> benign_;
  ThreadState* new_thread();
  // A new execution: no thread names, no allocations yet.
  void clear_notes();
  // The calling thread, about to run `t`: where its stack is.
  void note_stack(const ThreadState& t);
  bool enabled(const ThreadState& t) const;
  bool can_time_out(const ThreadState& t) const;
  // A blocked condition variable or futex wait that may wake spuriously (when enabled).
  bool can_wake_spuriously(const ThreadState& t) const;
  // Chooses who takes the next step and records it; nullptr when every thread finished.
  ThreadState* pick();
  // Its C++ thread_local destructors and key destructors, a ThreadExit step; then who runs
  // next (nullptr: nobody, the execution is over), told nothing yet.
  ThreadState* finish_thread(ThreadState* self);
  // The baton goes to `next` (nullptr: the execution is over), and the caller, which does
  // not wait for it back, goes on outside the schedule.
  void release_baton(ThreadState* next);
  // Gives the baton to `next` and returns when `self` holds it again: in user space when
  // both are fibers that may move (fiber.hpp), else through the kernel.
  void switch_to(ThreadState* self, ThreadState* next);
  // The carrier's thread finished and `next` runs next: hands the baton on. Returns true
  // when the carrier, a fiber, was resumed later with a new thread to run; false when it
  // must wait for one in the kernel.
  bool leave(Carrier* carrier, ThreadState* next);
  // Whether `next` can run on the processor running `me`, in user space: both may move and
  // next is saved.
  bool can_resume_here(const Fiber& me, const ThreadState& next);
  // Saves `me` and resumes `next` on the same processor; returns when me is resumed.
  void resume_here(Fiber& me, ThreadState* next);
  // Saves movable fiber `me` (holder_ already names `next`) and runs `next`: on this
  // processor in user space where it can, else by parking this processor and waking
  // whoever runs next. Returns when `me` is resumed.
  void hand_over(Fiber& me, ThreadState* next);
  // If this is `next`'s first turn (its carrier asleep), sets its baton for run_thread's
  // wait_baton and says so.
  bool first_turn(ThreadState* next);
  // The word that, set and woken, makes `next` run: its baton, its carrier's go (a first
  // turn), or, for a saved fiber, its home processor's wake (told to resume it).
  std::atomic<std::uint32_t>* wake_word(ThreadState* next);
  // Saves `me` and parks the processor running it, which then sets and wakes `word`.
  void park(Fiber& me, std::atomic<std::uint32_t>* word);
  // `self` was resumed as a fiber (by a switch or a parked processor).
  void resumed(ThreadState* self);
  Fiber& fiber_of(const ThreadState& t) {
    return t.carrier != nullptr ? t.carrier->fiber : main_fiber_;
  }
  // Whether a switch between two movable fibers may stay in user space now.
  static bool user_switching() { return fiber::enabled() && !signals_active(); }
  static bool signals_active();
  // Tells a watchdog in another process (ControllerConfig::holder_out) who holds the baton
  // and which kernel thread runs it.
  void publish_holder(const ThreadState& t, pid_t kernel_tid) {
    running_tid_.store(kernel_tid, std::memory_order_relaxed);
    if (config_.holder_out != nullptr)
      config_.holder_out->store(
          static_cast<std::uint64_t>(t.id) << 32 | static_cast<std::uint32_t>(kernel_tid),
          std::memory_order_relaxed);
  }
  // Waits in the kernel, on self's own kernel thread, for the baton.
  void wait_baton(ThreadState* self);
  std::vector<BlockedThread> blocked_threads() const;
  std::vector<detect::WaitEdge> wait_edges() const;
  // Whether `t`'s next operation is in, or called from, code it must not be preempted in.
  bool in_no_preempt_code(const ThreadState& t) const;
  bool access_is_point(const Op& op) const {
    // Nothing can interleave with the only thread left, once every other one's end
    // happens before it (see alone()).
    if (alone()) return false;
    if (op.kind != OpKind::Read && op.kind != OpKind::Write && op.kind != OpKind::Free)
      return true;  // atomics
    switch (config_.preempt_on) {
      case PreemptOn::kAll: return true;
      case PreemptOn::kRacy: return config_.racy != nullptr && config_.racy->contains(op.pc);
      case PreemptOn::kSync: return false;
    }
    return true;
  }
  // A thread polling plain memory (a flag, volatile or not, read in a loop without
  // atomics, as code built at -O0 does) passes no scheduling point, so the thread it
  // waits for would never run and the execution would end as a hang. After kPlainSpin
  // plain accesses with no scheduling point, the next kSpinWindow are watched: if they are
  // reads of at most three objects, the last becomes a scheduling point, where Fairness
  // sees the spin; otherwise (a scan, a write) counting starts again. A poll that also
  // writes (a counter of its turns) is caught by the bound on windows between two
  // scheduling points instead: past kLongRun of them (a million accesses) the thread
  // yields, if another can run. The count is all an ordinary access pays.
  static constexpr std::uint32_t kPlainSpin = 1024, kSpinWindow = 64, kLongRun = 1024;
  bool plain_spin(ThreadState* self, const Op& op) {
    if (++self->unsynced <= kPlainSpin) [[likely]]
      return false;
    return spin_window(self, op);
  }
  bool spin_window(ThreadState* self, const Op& op);
  // The values reports show (Event::before, Event::after): what the access self was just
  // chosen for finds, and what the previous step left, read before any other thread runs.
  void note_value_before(ThreadState* self, const Op& op, std::size_t size);
  void note_value_after();
  void long_run(ThreadState* self, const Op& op);
  void detect_race(ThreadState* self, const Op& op, std::size_t size, bool keep = false);
  // Heap misuse (controller_heap.cpp): `race` met a freed marker (an access or free of a
  // quarantined block); a free of a pointer no allocation returned.
  [[noreturn]] void use_after_free(ThreadState* self, const Op& op, DataRace& race);
  [[noreturn]] void invalid_free(ThreadState* self, std::uintptr_t address, std::uintptr_t pc,
                                 const FreedBlock* inside);
  // A quarantined block goes back to the allocator, its freed marks with it (all blocks:
  // clear_quarantine; without `forget` the marks stay, for a race detector reset next
  // or gone).
  void release(const FreedBlock& b);
  void clear_quarantine(bool forget);
  // Applies the steps taken since the last call to the race detector's clocks.
  void flush_steps();
  // The execution exceeded max_steps: a livelock, or a thread that never yields.
  [[noreturn]] void livelock();
  // t's next operation as the strategy is offered it: a try that would fail now only
  // reads its object, and says so (its kWrite bit cleared), so that partial-order
  // reduction sees two failing tries commute, as the executed steps do.
  Op offered(const ThreadState& t) const;
  // Past max_steps, the last steps show progress rather than a livelock (see
  // ControllerConfig::cut_long_executions).
  bool progressing() const;
  std::span<const Event> last_steps() const;
  // Gives `t` an OS thread: an idle carrier, or a new one (a custom stack size needs one).
  int start_os_thread(ThreadState* t, const pthread_attr_t* attr);
  static void* carrier_main(void* carrier);
  // Runs controlled thread `self` from its ThreadStart step to its end; returns who runs
  // next (see finish_thread).
  ThreadState* run_thread(ThreadState* self);
  // A carrier is done with its thread of this execution (touches nothing afterwards).
  void carrier_parked();

  static std::atomic<Controller*> active_;

  ControllerConfig config_;
  Strategy* strategy_;
  Event* events_;
  Decision* decisions_;
  std::uint64_t step_ = 0;
  std::uint64_t ndecisions_ = 0;
  std::uint64_t slept_ns_ = 0;
  static constexpr std::uint64_t kEntropySeed = 0x77656674;  // "weft"
  Rng entropy_{kEntropySeed};
  ThreadId last_ = kNoThread;
  detect::RaceDetector* races_;
  std::uint64_t hb_steps_ = 0;  // steps the race detector has seen
  HeapQuarantine quarantine_;   // used only with race detection on
  sigset_t driver_mask_{};      // the constructing thread's signal mask

  std::vector<std::unique_ptr<ThreadState>> threads_;  // reused across executions
  std::size_t nthreads_ = 0;
  std::size_t alive_ = 0;
  // Threads that ended and nobody joined (detached ones too): what they did is not
  // ordered before the others' next accesses, which race with it even when one thread is
  // left, and dpor must see those accesses as steps to reverse the race.
  std::size_t unjoined_ = 0;
  // The only thread left, and every other one joined (by it or by one it joined): each
  // of its accesses happens after every other thread's steps, so none needs to be a step.
  bool alone() const { return alive_ <= 1 && unjoined_ == 0; }
  std::vector<ThreadId> enabled_;
  std::vector<Op> next_ops_;
  std::vector<ThreadId> held_;  // enabled, but held back by fairness
  // Blocked threads offered anyway: chosen, their wait ends by timing out or spuriously.
  std::vector<ThreadId> alternates_;
  Fairness fairness_;
  std::atomic<ThreadState*> holder_{nullptr};
  std::atomic<pid_t> running_tid_{0};
  std::atomic<std::uint32_t> done_{0};
  std::vector<std::unique_ptr<Carrier>> carriers_;
  std::vector<Carrier*> idle_;          // carriers free for this execution
  std::atomic<std::uint32_t> busy_{0};  // carriers still running this execution's threads
  const std::function<void()>* body_ = nullptr;
  // A process's own main thread (adopt_main_thread) as a fiber, its kernel thread as a
  // processor.
  Fiber main_fiber_;
  Processor main_processor_;
};

}  // namespace weft::rt
