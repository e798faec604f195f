#pragma once
// A model program: threads as lists of operations on in-memory objects (the POS paper's
// micro-benchmark shape), run under any Strategy exactly as the runtime runs a real
// program, but deterministically, without threads, and fast. Strategies are tested, and
// the papers' probabilities reproduced, on these.
//
//   model::Program p;
//   auto x = p.variable("x");
//   auto m = p.mutex("m");
//   p.thread("A").lock(m).exchange(x, 1, 0).label("A1").unlock(m);
//   p.thread("B").lock(m).write(x, 2).label("B1").unlock(m);
//   p.expect_order("B1 A1");                 // the bug: exactly this order of labels
//   model::RunResult r = model::run(strategy, p, 1000);
//
// Each step: the enabled threads (ascending ThreadId) and their next ops form the
// SchedulingPoint; the strategy chooses; the chosen thread performs one op; an Event is
// recorded (kPreemption when the previous thread was still enabled and another ran).
// A thread that cannot proceed (a held mutex, an unsignalled event, an empty semaphore,
// an unfinished join target) is simply not enabled. No enabled thread while some are
// unfinished is a deadlock.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/coverage.hpp"
#include "core/event.hpp"
#include "core/schedule.hpp"
#include "core/strategy.hpp"

namespace weft::model {

using Value = std::int64_t;
using ObjectId = std::uint32_t;
using ThreadIndex = std::uint32_t;  // a thread's place in declaration order
inline constexpr std::size_t kRegisters = 8;

// The memory of one execution.
struct State {
  // Per object: a variable's value; a mutex's owner ThreadId + 1 (0: free); an event's
  // 0/1; a semaphore's count.
  std::vector<Value> objects;
  std::vector<Value> registers;  // kRegisters per declared thread, all 0 at the start

  Value& operator[](ObjectId o) { return objects[o]; }
  Value operator[](ObjectId o) const { return objects[o]; }
  Value& reg(ThreadIndex t, std::size_t r) { return registers[t * kRegisters + r]; }
  Value reg(ThreadIndex t, std::size_t r) const { return registers[t * kRegisters + r]; }
};

// What an access does to the state, atomically with its step.
using Effect = std::function<void(State&, ThreadIndex self)>;
// An assertion, evaluated right after its op: false is the bug.
using Check = std::function<bool(const State&, ThreadIndex self)>;

class Program;

// Appends ops to one thread. Cheap to copy; every method returns *this for chaining.
class ThreadBuilder {
 public:
  ThreadBuilder(Program* program, ThreadIndex index) : program_(program), index_(index) {}
  ThreadIndex index() const { return index_; }

  // Memory accesses (each one atomic step).
  ThreadBuilder& read(ObjectId var, std::size_t reg);               // reg = var
  ThreadBuilder& write(ObjectId var, Value v);                      // var = v
  ThreadBuilder& exchange(ObjectId var, Value v, std::size_t reg);  // reg = var; var = v
  ThreadBuilder& fetch_add(ObjectId var, Value v, std::size_t reg); // reg = var; var += v
  ThreadBuilder& access(OpKind kind, ObjectId var, Effect effect);  // anything else
  // Synchronization.
  ThreadBuilder& lock(ObjectId mutex);
  ThreadBuilder& unlock(ObjectId mutex);
  // reg = 1 and the mutex taken when it is free, else reg = 0 (a failed step, kFailed; the
  // holder's own try fails too, as on an errorcheck mutex). Always enabled.
  ThreadBuilder& try_lock(ObjectId mutex, std::size_t reg);
  // Unlocks when reg is 1 (a try_lock took it); else a yield.
  ThreadBuilder& unlock_if(ObjectId mutex, std::size_t reg);
  // reg = 1 and the count decremented when it is > 0, else reg = 0 (failed). Always enabled.
  ThreadBuilder& sem_try_wait(ObjectId sem, std::size_t reg);
  // Posts when reg is 1 (a sem_try_wait took one); else a yield.
  ThreadBuilder& sem_post_if(ObjectId sem, std::size_t reg);
  // A reader-writer lock: readers share it, a writer has it alone.
  ThreadBuilder& rdlock(ObjectId rwlock);
  ThreadBuilder& wrlock(ObjectId rwlock);
  ThreadBuilder& rw_unlock(ObjectId rwlock);
  ThreadBuilder& wait(ObjectId event);     // enabled once the event is signalled
  ThreadBuilder& signal(ObjectId event);   // sets it for good (manual reset)
  ThreadBuilder& sem_wait(ObjectId sem);   // enabled while the count is > 0; decrements
  ThreadBuilder& sem_post(ObjectId sem);
  ThreadBuilder& spawn(ThreadIndex child); // starts a thread declared with started=false
  ThreadBuilder& join(ThreadIndex target); // enabled once target has finished
  ThreadBuilder& yield();
  // Data nondeterminism: reg = strategy.choose_value(n), n >= 2.
  ThreadBuilder& choose(std::uint32_t n, std::size_t reg);

  // Modify the op added last.
  ThreadBuilder& label(std::string_view name);  // for expect_order() and order()
  ThreadBuilder& check(Check ok, std::string message = "assertion failed");

 private:
  // An op on object `o` (`action`: a Program::Action, declared below), checked and added.
  // Returns the Program::ModelOp (declared below) to complete.
  auto& object_op(int action, OpKind kind, ObjectId o);
  // One that keeps its outcome in a register, or reads it there (the try kinds).
  ThreadBuilder& with_register(int action, OpKind kind, ObjectId o, std::size_t reg);
  Program* program_;
  ThreadIndex index_;
};

class Program {
 public:
  ObjectId variable(std::string name, Value initial = 0);
  ObjectId mutex(std::string name);
  ObjectId event(std::string name);
  ObjectId semaphore(std::string name, Value initial = 0);
  ObjectId rwlock(std::string name);  // its value: readers holding it, -1 a writer

  // A started thread runs from the beginning; started threads take ThreadIds 0, 1, ...
  // in declaration order. Others start when some thread spawn()s them and take the next
  // ThreadId then (threads are numbered in creation order, as in the runtime).
  ThreadBuilder thread(std::string name, bool started = true);
  ThreadBuilder thread_at(ThreadIndex index) { return ThreadBuilder(this, index); }

  // The bug is that the labelled ops ran in exactly this order (space-separated labels).
  void expect_order(std::string_view labels);
  // The bug is that ok(final state) is false after an execution that ran to its end.
  void expect_final(std::function<bool(const State&)> ok, std::string message = "final check");
  // Whether a deadlock counts as the bug (default true).
  void deadlock_is_bug(bool yes) { deadlock_is_bug_ = yes; }

  std::size_t thread_count() const { return threads_.size(); }
  std::size_t object_count() const { return objects_.size(); }
  std::size_t op_count() const;
  const std::string& thread_name(ThreadIndex t) const { return threads_[t].name; }

 private:
  friend class ThreadBuilder;
  friend class Executor;
  enum class Action : std::uint8_t {
    kAccess, kLock, kUnlock, kWait, kSignal, kSemWait, kSemPost, kSpawn, kJoin, kYield, kChoose,
    kTryLock, kUnlockIf, kSemTryWait, kSemPostIf, kRdLock, kWrLock, kRwUnlock
  };
  enum class ObjectKind : std::uint8_t { kVariable, kMutex, kEvent, kSemaphore, kRwLock };
  static constexpr std::uint32_t kNoLabel = 0xffffffffu;
  struct ModelOp {
    Action action = Action::kYield;
    OpKind kind = OpKind::Yield;
    std::uint32_t target = 0;  // object, or thread index for spawn/join
    std::uint32_t values = 0;  // choose: n
    std::uint32_t reg = 0;     // choose: the register
    std::uint32_t label = kNoLabel;
    Effect effect;
    Check check;
    std::string check_message;
  };
  struct Thread {
    std::string name;
    bool started = true;
    std::vector<ModelOp> ops;
  };
  struct Object {
    std::string name;
    ObjectKind kind;
    Value initial;
  };
  ObjectId add_object(std::string name, ObjectKind kind, Value initial);
  ModelOp& add_op(ThreadIndex t, Action action, OpKind kind, std::uint32_t target);
  std::uint32_t intern(std::string_view label);

  std::vector<Object> objects_;
  std::vector<Thread> threads_;
  std::vector<std::string> labels_;
  std::vector<std::uint32_t> target_order_;
  bool has_target_ = false;
  std::function<bool(const State&)> final_ok_;
  std::string final_message_;
  bool deadlock_is_bug_ = true;
};

// How one execution ended.
struct ExecutionResult {
  bool hit = false;       // the bug: the target order, a failed check, the final check, or
                          // a deadlock (if it counts)
  bool deadlock = false;
  std::string_view message;  // why it hit ("" if not); points into the Program
  std::size_t steps = 0;
};

// Runs executions of one program, reusing its buffers (no allocation per step once warm).
class Executor {
 public:
  explicit Executor(const Program& program);
  // One execution under `strategy`, whose next_execution() the caller has called; ends
  // with strategy.execution_done(trace).
  ExecutionResult run(Strategy& strategy);

  // The last execution.
  std::span<const Event> events() const { return events_; }
  std::span<const Decision> decisions() const { return decisions_; }  // its Schedule
  std::string order() const;  // its labels, space-separated
  const State& state() const { return state_; }
  // The strategy broke its contract (chose a thread that is not enabled, a value out of
  // range): how often, and the first time, in one line. The executor then takes the
  // first enabled thread (value 0) and goes on.
  std::uint64_t violations() const { return violations_; }
  const std::string& violation() const { return violation_; }

  // Addresses the strategies see for objects and threads.
  static std::uintptr_t object_address(ObjectId o) { return 0x10000 + 0x40 * o; }
  static std::uintptr_t thread_address(ThreadIndex t) { return 0x800000 + 0x40 * t; }

 private:
  struct Live {
    ThreadId tid = kNoThread;  // kNoThread: not started (yet)
    std::uint32_t pc = 0;      // next op
    bool finished = false;
  };
  bool is_enabled(const Program::ModelOp& op) const;
  Op to_op(ThreadIndex t, std::uint32_t pc) const;
  void violate(const std::string& what);

  const Program& program_;
  State state_;
  std::vector<Live> live_;               // by thread index
  std::vector<ThreadIndex> by_tid_;      // ThreadId -> thread index
  std::vector<ThreadId> enabled_;
  std::vector<Op> next_ops_;
  std::vector<Event> events_;
  std::vector<Event> blocked_;  // unfinished threads at the end, at their next steps
  std::vector<Decision> decisions_;
  std::vector<std::uint32_t> labels_run_;
  std::uint64_t violations_ = 0;
  std::string violation_;
};

struct RunOptions {
  bool stop_at_first_hit = false;
  bool count_distinct = true;  // hash every schedule (costs a set insert per execution)
};

struct RunResult {
  std::uint64_t executions = 0;
  std::uint64_t hits = 0;
  std::int64_t first_hit = -1;  // 0-based index of the first execution that hit; -1: none
  std::uint64_t deadlocks = 0;
  std::uint64_t distinct_schedules = 0;  // by a 128-bit hash of the decisions
  std::uint64_t max_steps = 0;
  std::uint64_t total_steps = 0;
  std::uint64_t violations = 0;  // strategy contract violations (see Executor)
  std::string violation;
  bool exhausted = false;  // next_execution() returned false before the budget ran out
  Coverage coverage;       // the strategy's, at the end
  double hit_rate() const { return executions ? double(hits) / double(executions) : 0.0; }
};

// Runs up to max_executions executions (0: until the strategy is exhausted).
RunResult run(Strategy& strategy, const Program& program, std::uint64_t max_executions,
              const RunOptions& options = {});

}  // namespace weft::model
