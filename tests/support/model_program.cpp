#include "support/model_program.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "core/rng.hpp"

namespace weft::model {

// --- building -----------------------------------------------------------------------

ObjectId Program::add_object(std::string name, ObjectKind kind, Value initial) {
  objects_.push_back(Object{std::move(name), kind, initial});
  return static_cast<ObjectId>(objects_.size() - 1);
}

ObjectId Program::variable(std::string name, Value initial) {
  return add_object(std::move(name), ObjectKind::kVariable, initial);
}
ObjectId Program::mutex(std::string name) {
  return add_object(std::move(name), ObjectKind::kMutex, 0);
}
ObjectId Program::event(std::string name) {
  return add_object(std::move(name), ObjectKind::kEvent, 0);
}
ObjectId Program::semaphore(std::string name, Value initial) {
  return add_object(std::move(name), ObjectKind::kSemaphore, initial);
}
ObjectId Program::rwlock(std::string name) {
  return add_object(std::move(name), ObjectKind::kRwLock, 0);
}

ThreadBuilder Program::thread(std::string name, bool started) {
  threads_.push_back(Thread{std::move(name), started, {}});
  return ThreadBuilder(this, static_cast<ThreadIndex>(threads_.size() - 1));
}

std::size_t Program::op_count() const {
  std::size_t n = 0;
  for (const Thread& t : threads_) n += t.ops.size();
  return n;
}

Program::ModelOp& Program::add_op(ThreadIndex t, Action action, OpKind kind,
                                  std::uint32_t target) {
  if (t >= threads_.size()) throw std::invalid_argument("model: no such thread");
  ModelOp op;
  op.action = action;
  op.kind = kind;
  op.target = target;
  threads_[t].ops.push_back(std::move(op));
  return threads_[t].ops.back();
}

std::uint32_t Program::intern(std::string_view label) {
  for (std::size_t i = 0; i < labels_.size(); ++i)
    if (labels_[i] == label) return static_cast<std::uint32_t>(i);
  labels_.emplace_back(label);
  return static_cast<std::uint32_t>(labels_.size() - 1);
}

void Program::expect_order(std::string_view labels) {
  target_order_.clear();
  has_target_ = true;
  std::size_t i = 0;
  while (i < labels.size()) {
    while (i < labels.size() && labels[i] == ' ') ++i;
    std::size_t j = i;
    while (j < labels.size() && labels[j] != ' ') ++j;
    if (j > i) target_order_.push_back(intern(labels.substr(i, j - i)));
    i = j;
  }
}

void Program::expect_final(std::function<bool(const State&)> ok, std::string message) {
  final_ok_ = std::move(ok);
  final_message_ = std::move(message);
}

namespace {
void check_object(const Program& p, ObjectId o) {
  if (o >= p.object_count()) throw std::invalid_argument("model: no such object");
}
}  // namespace

auto& ThreadBuilder::object_op(int action, OpKind kind, ObjectId o) {
  check_object(*program_, o);
  return program_->add_op(index_, static_cast<Program::Action>(action), kind, o);
}
ThreadBuilder& ThreadBuilder::read(ObjectId var, std::size_t reg) {
  object_op(static_cast<int>(Program::Action::kAccess), OpKind::Read, var).effect =
      [var, reg](State& s, ThreadIndex self) { s.reg(self, reg) = s[var]; };
  return *this;
}

ThreadBuilder& ThreadBuilder::write(ObjectId var, Value v) {
  object_op(static_cast<int>(Program::Action::kAccess), OpKind::Write, var).effect =
      [var, v](State& s, ThreadIndex) { s[var] = v; };
  return *this;
}

ThreadBuilder& ThreadBuilder::exchange(ObjectId var, Value v, std::size_t reg) {
  object_op(static_cast<int>(Program::Action::kAccess), OpKind::AtomicRmw, var).effect =
      [var, v, reg](State& s, ThreadIndex self) {
        s.reg(self, reg) = s[var];
        s[var] = v;
      };
  return *this;
}

ThreadBuilder& ThreadBuilder::fetch_add(ObjectId var, Value v, std::size_t reg) {
  object_op(static_cast<int>(Program::Action::kAccess), OpKind::AtomicRmw, var).effect =
      [var, v, reg](State& s, ThreadIndex self) {
        s.reg(self, reg) = s[var];
        s[var] += v;
      };
  return *this;
}

ThreadBuilder& ThreadBuilder::access(OpKind kind, ObjectId var, Effect effect) {
  object_op(static_cast<int>(Program::Action::kAccess), kind, var).effect = std::move(effect);
  return *this;
}

ThreadBuilder& ThreadBuilder::lock(ObjectId m) {
  object_op(static_cast<int>(Program::Action::kLock), OpKind::MutexLock, m);
  return *this;
}
ThreadBuilder& ThreadBuilder::unlock(ObjectId m) {
  object_op(static_cast<int>(Program::Action::kUnlock), OpKind::MutexUnlock, m);
  return *this;
}
ThreadBuilder& ThreadBuilder::with_register(int action, OpKind kind, ObjectId o, std::size_t reg) {
  object_op(action, kind, o).reg = static_cast<std::uint32_t>(reg);
  return *this;
}
ThreadBuilder& ThreadBuilder::try_lock(ObjectId m, std::size_t reg) {
  return with_register(static_cast<int>(Program::Action::kTryLock), OpKind::MutexTryLock, m, reg);
}
ThreadBuilder& ThreadBuilder::unlock_if(ObjectId m, std::size_t reg) {
  return with_register(static_cast<int>(Program::Action::kUnlockIf), OpKind::MutexUnlock, m, reg);
}
ThreadBuilder& ThreadBuilder::sem_try_wait(ObjectId s, std::size_t reg) {
  return with_register(static_cast<int>(Program::Action::kSemTryWait), OpKind::SemTryWait, s, reg);
}
ThreadBuilder& ThreadBuilder::sem_post_if(ObjectId s, std::size_t reg) {
  return with_register(static_cast<int>(Program::Action::kSemPostIf), OpKind::SemPost, s, reg);
}
ThreadBuilder& ThreadBuilder::wait(ObjectId e) {
  object_op(static_cast<int>(Program::Action::kWait), OpKind::FutexWait, e);
  return *this;
}
ThreadBuilder& ThreadBuilder::signal(ObjectId e) {
  object_op(static_cast<int>(Program::Action::kSignal), OpKind::FutexWake, e);
  return *this;
}
ThreadBuilder& ThreadBuilder::sem_wait(ObjectId s) {
  object_op(static_cast<int>(Program::Action::kSemWait), OpKind::SemWait, s);
  return *this;
}
ThreadBuilder& ThreadBuilder::rdlock(ObjectId l) {
  object_op(static_cast<int>(Program::Action::kRdLock), OpKind::RwReadLock, l);
  return *this;
}
ThreadBuilder& ThreadBuilder::wrlock(ObjectId l) {
  object_op(static_cast<int>(Program::Action::kWrLock), OpKind::RwWriteLock, l);
  return *this;
}
ThreadBuilder& ThreadBuilder::rw_unlock(ObjectId l) {
  object_op(static_cast<int>(Program::Action::kRwUnlock), OpKind::RwUnlock, l);
  return *this;
}
ThreadBuilder& ThreadBuilder::sem_post(ObjectId s) {
  object_op(static_cast<int>(Program::Action::kSemPost), OpKind::SemPost, s);
  return *this;
}
ThreadBuilder& ThreadBuilder::spawn(ThreadIndex child) {
  if (child >= program_->thread_count() || program_->threads_[child].started)
    throw std::invalid_argument("model: spawn() needs a thread declared with started=false");
  program_->add_op(index_, Program::Action::kSpawn, OpKind::ThreadCreate, child);
  return *this;
}
ThreadBuilder& ThreadBuilder::join(ThreadIndex target) {
  if (target >= program_->thread_count() || target == index_)
    throw std::invalid_argument("model: join() needs another thread");
  program_->add_op(index_, Program::Action::kJoin, OpKind::ThreadJoin, target);
  return *this;
}
ThreadBuilder& ThreadBuilder::yield() {
  program_->add_op(index_, Program::Action::kYield, OpKind::Yield, 0);
  return *this;
}
ThreadBuilder& ThreadBuilder::choose(std::uint32_t n, std::size_t reg) {
  if (n < 2 || reg >= kRegisters) throw std::invalid_argument("model: choose(n >= 2, reg)");
  auto& op = program_->add_op(index_, Program::Action::kChoose, OpKind::Yield, 0);
  op.values = n;
  op.reg = static_cast<std::uint32_t>(reg);
  return *this;
}

ThreadBuilder& ThreadBuilder::label(std::string_view name) {
  auto& ops = program_->threads_[index_].ops;
  if (ops.empty()) throw std::invalid_argument("model: label() before any op");
  ops.back().label = program_->intern(name);
  return *this;
}

ThreadBuilder& ThreadBuilder::check(Check ok, std::string message) {
  auto& ops = program_->threads_[index_].ops;
  if (ops.empty()) throw std::invalid_argument("model: check() before any op");
  ops.back().check = std::move(ok);
  ops.back().check_message = std::move(message);
  return *this;
}

// --- running ------------------------------------------------------------------------

Executor::Executor(const Program& program) : program_(program) {
  state_.objects.resize(program.objects_.size());
  state_.registers.resize(program.threads_.size() * kRegisters);
  live_.resize(program.threads_.size());
  by_tid_.reserve(program.threads_.size());
  enabled_.reserve(program.threads_.size());
  next_ops_.reserve(program.threads_.size());
  blocked_.reserve(program.threads_.size());
  events_.reserve(program.op_count());
}

bool Executor::is_enabled(const Program::ModelOp& op) const {
  switch (op.action) {
    case Program::Action::kLock: return state_[op.target] == 0;
    case Program::Action::kWait: return state_[op.target] != 0;
    case Program::Action::kSemWait: return state_[op.target] > 0;
    case Program::Action::kRdLock: return state_[op.target] >= 0;
    case Program::Action::kWrLock: return state_[op.target] == 0;
    case Program::Action::kJoin: return live_[op.target].finished;
    default: return true;
  }
}

Op Executor::to_op(ThreadIndex t, std::uint32_t pc) const {
  const Program::ModelOp& m = program_.threads_[t].ops[pc];
  // A distinct fake return address per op: strategies that key on code locations work.
  const std::uintptr_t code = 0x400000 + (std::uintptr_t{t} << 16) + 4 * std::uintptr_t{pc};
  switch (m.action) {
    case Program::Action::kSpawn:
      return make_op(m.kind, thread_address(m.target), code, 0,
                     static_cast<std::uint32_t>(by_tid_.size()));
    case Program::Action::kJoin:
      return make_op(m.kind, thread_address(m.target), code, 0, live_[m.target].tid);
    case Program::Action::kYield:
    case Program::Action::kChoose:
      return make_op(m.kind, 0, code);
    case Program::Action::kUnlockIf:  // not taken: nothing to unlock
      if (state_.reg(t, m.reg) == 0) return make_op(OpKind::Yield, 0, code);
      return make_op(m.kind, object_address(m.target), code);
    case Program::Action::kTryLock:  // one that will fail only reads (as the runtime offers it)
    case Program::Action::kSemTryWait: {
      Op op = make_op(m.kind, object_address(m.target), code);
      const bool fails = m.action == Program::Action::kTryLock ? state_[m.target] != 0
                                                                : state_[m.target] <= 0;
      if (fails) op.flags &= static_cast<std::uint8_t>(~kWrite);
      return op;
    }
    case Program::Action::kSemPostIf:
      if (state_.reg(t, m.reg) == 0) return make_op(OpKind::Yield, 0, code);
      return make_op(m.kind, object_address(m.target), code);
    case Program::Action::kAccess:
      return make_op(m.kind, object_address(m.target), code, sizeof(Value));
    default:
      return make_op(m.kind, object_address(m.target), code);
  }
}

void Executor::violate(const std::string& what) {
  if (violations_++ == 0) violation_ = what;
}

ExecutionResult Executor::run(Strategy& strategy) {
  const auto& threads = program_.threads_;
  for (std::size_t o = 0; o < program_.objects_.size(); ++o)
    state_.objects[o] = program_.objects_[o].initial;
  std::fill(state_.registers.begin(), state_.registers.end(), 0);
  by_tid_.clear();
  for (ThreadIndex t = 0; t < threads.size(); ++t) {
    live_[t] = Live{};
    if (threads[t].started) {
      live_[t].tid = static_cast<ThreadId>(by_tid_.size());
      live_[t].finished = threads[t].ops.empty();
      by_tid_.push_back(t);
    }
  }
  events_.clear();
  blocked_.clear();
  decisions_.clear();
  labels_run_.clear();

  ExecutionResult result;
  ThreadId current = kNoThread;
  for (;;) {
    enabled_.clear();
    next_ops_.clear();
    bool unfinished = false;
    bool current_enabled = false;
    for (ThreadId tid = 0; tid < by_tid_.size(); ++tid) {
      const ThreadIndex t = by_tid_[tid];
      if (live_[t].finished) continue;
      unfinished = true;
      if (!is_enabled(threads[t].ops[live_[t].pc])) continue;
      enabled_.push_back(tid);
      next_ops_.push_back(to_op(t, live_[t].pc));
      current_enabled |= tid == current;
    }
    if (enabled_.empty()) {
      result.deadlock = unfinished;
      break;
    }

    SchedulingPoint p;
    p.step = events_.size();
    p.current = current;
    p.current_enabled = current_enabled;
    p.enabled = enabled_;
    p.next_ops = next_ops_;
    p.thread_count = by_tid_.size();
    ThreadId chosen = strategy.choose(p);
    std::size_t slot = 0;
    while (slot < enabled_.size() && enabled_[slot] != chosen) ++slot;
    if (slot == enabled_.size()) {
      violate("step " + std::to_string(p.step) + ": the strategy chose thread " +
              std::to_string(chosen) + ", which is not enabled");
      slot = 0;
      chosen = enabled_[0];
    }
    decisions_.push_back(Decision{Decision::kThread, chosen});

    Event e;
    e.thread = chosen;
    e.flags = current_enabled && chosen != current ? kPreemption : 0;
    e.enabled = static_cast<std::uint8_t>(enabled_.size() < 255 ? enabled_.size() : 255);
    e.op = next_ops_[slot];

    const ThreadIndex t = by_tid_[chosen];
    Live& me = live_[t];
    const Program::ModelOp& op = threads[t].ops[me.pc];
    switch (op.action) {
      case Program::Action::kAccess:
        if (op.effect) op.effect(state_, t);
        break;
      case Program::Action::kLock: state_[op.target] = Value{chosen} + 1; break;
      case Program::Action::kUnlock:
        if (state_[op.target] != Value{chosen} + 1)
          throw std::logic_error("model: thread " + threads[t].name +
                                 " unlocks a mutex it does not hold");
        state_[op.target] = 0;
        break;
      case Program::Action::kTryLock:
        if (state_[op.target] == 0) {
          state_[op.target] = Value{chosen} + 1;
          state_.reg(t, op.reg) = 1;
        } else {
          state_.reg(t, op.reg) = 0;
          e.flags |= kFailed;
        }
        break;
      case Program::Action::kUnlockIf:
        if (state_.reg(t, op.reg) != 0) state_[op.target] = 0;
        break;
      case Program::Action::kSemTryWait:
        if (state_[op.target] > 0) {
          --state_[op.target];
          state_.reg(t, op.reg) = 1;
        } else {
          state_.reg(t, op.reg) = 0;
          e.flags |= kFailed;
        }
        break;
      case Program::Action::kSemPostIf:
        if (state_.reg(t, op.reg) != 0) ++state_[op.target];
        break;
      case Program::Action::kWait: break;
      case Program::Action::kSignal: state_[op.target] = 1; break;
      case Program::Action::kSemWait: --state_[op.target]; break;
      case Program::Action::kRdLock: ++state_[op.target]; break;
      case Program::Action::kWrLock: state_[op.target] = -1; break;
      case Program::Action::kRwUnlock:
        state_[op.target] = state_[op.target] < 0 ? 0 : state_[op.target] - 1;
        break;
      case Program::Action::kSemPost: ++state_[op.target]; break;
      case Program::Action::kSpawn: {
        Live& child = live_[op.target];
        if (child.tid != kNoThread)
          throw std::logic_error("model: thread " + threads[op.target].name + " spawned twice");
        child.tid = static_cast<ThreadId>(by_tid_.size());
        child.finished = threads[op.target].ops.empty();
        by_tid_.push_back(op.target);
        break;
      }
      case Program::Action::kJoin: break;
      case Program::Action::kYield: break;
      case Program::Action::kChoose: {
        std::size_t v = strategy.choose_value(op.values);
        if (v >= op.values) {
          violate("step " + std::to_string(p.step) + ": the strategy chose value " +
                  std::to_string(v) + " of " + std::to_string(op.values));
          v = 0;
        }
        decisions_.push_back(Decision{Decision::kValue, static_cast<std::uint32_t>(v)});
        state_.reg(t, op.reg) = static_cast<Value>(v);
        break;
      }
    }
    events_.push_back(e);
    current = chosen;
    if (op.label != Program::kNoLabel) labels_run_.push_back(op.label);
    const bool failed = op.check && !op.check(state_, t);
    if (++me.pc == threads[t].ops.size()) me.finished = true;
    if (failed) {
      result.hit = true;
      result.message = op.check_message;
      break;
    }
  }

  // What the threads left unfinished (a deadlock, a failed check) would do next.
  for (ThreadId tid = 0; tid < by_tid_.size(); ++tid)
    if (const ThreadIndex t = by_tid_[tid]; !live_[t].finished) {
      Event e;
      e.thread = tid;
      e.op = to_op(t, live_[t].pc);
      blocked_.push_back(e);
    }
  result.steps = events_.size();
  if (!result.hit && result.deadlock && program_.deadlock_is_bug_) {
    result.hit = true;
    result.message = "deadlock";
  }
  if (!result.hit && !result.deadlock) {
    if (program_.has_target_ && labels_run_ == program_.target_order_) {
      result.hit = true;
      result.message = "order";
    } else if (program_.final_ok_ && !program_.final_ok_(state_)) {
      result.hit = true;
      result.message = program_.final_message_;
    }
  }
  strategy.execution_done(Trace(events_.data(), events_.size(), blocked_));
  return result;
}

std::string Executor::order() const {
  std::string s;
  for (std::uint32_t l : labels_run_) {
    if (!s.empty()) s += ' ';
    s += program_.labels_[l];
  }
  return s;
}

namespace {

struct Key {
  std::uint64_t a, b;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const { return static_cast<std::size_t>(k.a ^ k.b); }
};

Key schedule_key(std::span<const Decision> decisions) {
  std::uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull;
  for (const Decision& d : decisions) {
    const std::uint64_t x = (std::uint64_t{d.kind} << 32) | d.value;
    a = (a ^ x) * 0x100000001b3ull;
    b = Rng::splitmix(b += x);
  }
  return Key{Rng::splitmix(a), b ^ decisions.size()};
}

}  // namespace

RunResult run(Strategy& strategy, const Program& program, std::uint64_t max_executions,
              const RunOptions& options) {
  RunResult r;
  Executor executor(program);
  std::unordered_set<Key, KeyHash> seen;
  while (max_executions == 0 || r.executions < max_executions) {
    if (!strategy.next_execution()) {
      r.exhausted = true;
      break;
    }
    const ExecutionResult e = executor.run(strategy);
    if (e.hit) {
      if (r.first_hit < 0) r.first_hit = static_cast<std::int64_t>(r.executions);
      ++r.hits;
    }
    r.deadlocks += e.deadlock;
    r.max_steps = std::max<std::uint64_t>(r.max_steps, e.steps);
    r.total_steps += e.steps;
    if (options.count_distinct) seen.insert(schedule_key(executor.decisions()));
    ++r.executions;
    if (e.hit && options.stop_at_first_hit) break;
  }
  r.distinct_schedules = seen.size();
  r.violations = executor.violations();
  r.violation = executor.violation();
  r.coverage = strategy.coverage();
  return r;
}

}  // namespace weft::model
