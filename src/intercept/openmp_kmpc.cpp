// libomp's ABI (the __kmpc_* calls clang emits for OpenMP directives), on the same teams,
// loops and locks as libgomp's (openmp.cpp). The global thread id the program passes back
// is ignored: the calling thread knows its team. Entry points weft does not implement are
// refused in openmp_unsupported.cpp.
#include <array>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "intercept/openmp_icv.hpp"
#include "intercept/openmp_lock.hpp"
#include "intercept/openmp_loop.hpp"
#include "intercept/openmp_team.hpp"
#include "intercept/program_call.hpp"
#include "intercept/real.hpp"

using namespace weft::intercept::openmp;

extern "C" {
int omp_get_num_threads();
int omp_in_parallel();
}

namespace {

using kmp_int32 = std::int32_t;
using Microtask = void (*)(kmp_int32*, kmp_int32*, ...);

// ---- fork: the outlined region gets its thread ids and the shared variables' addresses --

constexpr std::size_t kMaxArgs = 32;

template <std::size_t... I>
void invoke(Microtask fn, kmp_int32* gtid, kmp_int32* btid, void** args,
            std::index_sequence<I...>) {
  fn(gtid, btid, args[I]...);
}
using Invoker = void (*)(Microtask, kmp_int32*, kmp_int32*, void**);
template <std::size_t... N>
constexpr std::array<Invoker, sizeof...(N)> invokers(std::index_sequence<N...>) {
  return {[](Microtask fn, kmp_int32* g, kmp_int32* b, void** a) {
    invoke(fn, g, b, a, std::make_index_sequence<N>{});
  }...};
}
constexpr auto kInvokers = invokers(std::make_index_sequence<kMaxArgs + 1>{});

struct ForkCall {
  Microtask fn;
  int argc;
  void* args[kMaxArgs];
};

void run_microtask(void* p) {
  const auto* call = static_cast<const ForkCall*>(p);
  kmp_int32 gtid = static_cast<kmp_int32>(member().num), btid = gtid;
  kInvokers[call->argc](call->fn, &gtid, &btid, const_cast<void**>(call->args));
}

// __kmpc_push_num_threads: the next fork's team size (0: the ICV's).
constinit thread_local unsigned t_pushed_threads __attribute__((tls_model("initial-exec"))) = 0;

// __kmpc_serialized_parallel: a region of one run by the caller itself (an if(false)
// clause), inside which work-sharing constructs run whole.
constexpr unsigned kMaxSerialized = 16;
constinit thread_local Member t_outer[kMaxSerialized] __attribute__((tls_model("initial-exec")));
constinit thread_local unsigned t_serialized __attribute__((tls_model("initial-exec"))) = 0;

// ---- loops: libomp's schedule kinds, inclusive bounds ----

// kmp.h's sched_type, without the monotonic/nonmonotonic modifier bits.
Schedule schedule_of(int kind, bool* ordered, std::uint64_t* chunk) {
  kind &= ~(3 << 29);
  *ordered = kind >= 65 && kind <= 70;
  if (*ordered) kind -= 32;
  switch (kind) {
    case 33:
    case 45: return Schedule::kStatic;  // chunked
    case 34:
    case 40:
    case 41: *chunk = 0; return Schedule::kStatic;  // blocks
    case 36:
    case 42:
    case 43:
    case 46: return Schedule::kGuided;
    case 37:
    case 47: *chunk = icvs().run_chunk; return icvs().run_schedule;
    case 38: *chunk = 0; return Schedule::kStatic;  // auto
    default: return Schedule::kDynamic;             // 35 dynamic, 39 trapezoidal, 44 static steal
  }
}

// Iterations of lb..ub inclusive, step st.
std::uint64_t inclusive_count(__int128 lb, __int128 ub, __int128 st) {
  return trip_count(lb, st > 0 ? ub + 1 : ub - 1, st);
}

// A dispatch loop's first chunk, taken at __kmpc_dispatch_init, waits for the first
// __kmpc_dispatch_next.
constinit thread_local bool t_pending __attribute__((tls_model("initial-exec"))) = false;
constinit thread_local Chunk t_first __attribute__((tls_model("initial-exec")));
constinit thread_local std::uint64_t t_count __attribute__((tls_model("initial-exec"))) = 0;

template <typename T, typename S>
void dispatch_init(int kind, T lb, T ub, S st, S chunk_size) {
  bool ordered = false;
  std::uint64_t chunk = chunk_size > 0 ? static_cast<std::uint64_t>(chunk_size) : 1;
  const Schedule s = schedule_of(kind, &ordered, &chunk);
  Member& m = member();
  t_count = inclusive_count(lb, ub, st);
  t_pending = start_loop(s, t_count, chunk, ordered, &t_first);
  m.bounds_start = static_cast<std::uint64_t>(lb);
  m.bounds_incr = static_cast<std::uint64_t>(static_cast<std::int64_t>(st));
}

template <typename T, typename S>
int dispatch_next(kmp_int32* last, T* lb, T* ub, S* st) {
  Member& m = member();
  Chunk c;
  if (t_pending) {
    c = t_first;
    t_pending = false;
  } else if (lone(m) || !next(&c)) {
    end_loop(false);  // the program's barrier follows unless nowait
    return 0;
  }
  const Bounds b{m.bounds_start, m.bounds_incr};
  *lb = iteration<T>(b, c.begin);
  *ub = iteration<T>(b, c.end - 1);
  if (st != nullptr) *st = static_cast<S>(m.bounds_incr);
  if (last != nullptr) *last = c.end == t_count ? 1 : 0;
  return 1;
}

// Static schedules need no shared state: each thread works out its own chunks.
template <typename T, typename S>
void static_init(int kind, kmp_int32* last, T* lower, T* upper, S* stride, S incr, S chunk_size) {
  const Member& m = member();
  const std::uint64_t n = m.team == nullptr ? 1 : m.team->size(), t = m.num;
  const T lo = *lower, hi = *upper;
  const std::uint64_t count = inclusive_count(lo, hi, incr);
  const Bounds b{static_cast<std::uint64_t>(lo),
                 static_cast<std::uint64_t>(static_cast<std::int64_t>(incr))};
  bool ordered = false;
  std::uint64_t chunk = chunk_size > 0 ? static_cast<std::uint64_t>(chunk_size) : 1;
  schedule_of(kind, &ordered, &chunk);
  if (last != nullptr) *last = 0;
  if (count == 0) {
    *stride = incr;
    return;
  }
  if (chunk != 0) {  // round robin: this thread's first chunk, and the step to its next
    const std::uint64_t begin = t * chunk;
    *lower = iteration<T>(b, begin);
    *upper = iteration<T>(b, begin + chunk - 1);
    *stride =
        static_cast<S>(chunk * n * static_cast<std::uint64_t>(static_cast<std::int64_t>(incr)));
    if (last != nullptr) *last = ((count - 1) / chunk) % n == t ? 1 : 0;
    return;
  }
  const std::uint64_t q = count / n, rem = count % n;
  const std::uint64_t begin = t * q + (t < rem ? t : rem), end = begin + q + (t < rem ? 1 : 0);
  if (begin < end) {
    *lower = iteration<T>(b, begin);
    *upper = iteration<T>(b, end - 1);
  } else {  // nothing for this thread: an empty range
    *lower = static_cast<T>(hi + static_cast<T>(incr));
    *upper = hi;
  }
  *stride = static_cast<S>(count);
  if (last != nullptr) *last = begin < end && end == count ? 1 : 0;
}

void barrier() {
  Member& m = member();
  if (m.team != nullptr) m.team->barrier();
}

// Tasks: libomp's kmp_task_t heads the block __kmpc_omp_task_alloc returns; the
// shared variables' pointers follow it.
struct KmpTask {
  void* shareds;
  kmp_int32 (*routine)(kmp_int32, void*);
  kmp_int32 part_id;
  union {
    kmp_int32 priority;
    kmp_int32 (*destructors)(kmp_int32, void*);
  } data1;
};
constexpr kmp_int32 kDestructorsThunk = 1 << 3;
struct TaskBlock {
  kmp_int32 flags;
  std::max_align_t task[1];  // the KmpTask, its privates, then the shareds
};
TaskBlock* block_of(void* task) {
  return reinterpret_cast<TaskBlock*>(static_cast<char*>(task) - offsetof(TaskBlock, task));
}

void finish_task(void* task) {
  auto* t = static_cast<KmpTask*>(task);
  TaskBlock* block = block_of(task);
  if ((block->flags & kDestructorsThunk) != 0 && t->data1.destructors != nullptr)
    t->data1.destructors(static_cast<kmp_int32>(member().num), task);
  std::free(block);
}

}  // namespace

extern "C" {

// ---- threads and teams ----

kmp_int32 __kmpc_global_thread_num(void*) { return static_cast<kmp_int32>(member().num); }
kmp_int32 __kmpc_bound_thread_num(void*) { return static_cast<kmp_int32>(member().num); }
kmp_int32 __kmpc_global_num_threads(void*) { return omp_get_num_threads(); }
kmp_int32 __kmpc_bound_num_threads(void*) { return omp_get_num_threads(); }
kmp_int32 __kmpc_in_parallel(void*) { return omp_in_parallel(); }
kmp_int32 __kmpc_ok_to_fork(void*) { return 1; }
void __kmpc_begin(void*, kmp_int32) {}
void __kmpc_end(void*) {}
void __kmpc_push_num_threads(void*, kmp_int32, kmp_int32 n) { t_pushed_threads = n > 0 ? n : 0; }
void __kmpc_push_proc_bind(void*, kmp_int32, int) {}
void __kmpc_flush(void*) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

void __kmpc_fork_call(void*, kmp_int32 argc, Microtask fn, ...) {
  const std::uintptr_t pc = WEFT_PC;
  if (argc < 0 || static_cast<std::size_t>(argc) > kMaxArgs)
    unsupported("parallel with more than 32 shared variables", "__kmpc_fork_call", pc);
  ForkCall call{fn, argc, {}};
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; ++i) call.args[i] = va_arg(ap, void*);
  va_end(ap);
  const unsigned requested = t_pushed_threads;
  t_pushed_threads = 0;
  run_parallel(team_size(member(), requested), run_microtask, &call, nullptr, pc);
}

void __kmpc_serialized_parallel(void*, kmp_int32) {
  Member& m = member();
  if (t_serialized == kMaxSerialized)
    unsupported("serialized parallel nested 16 deep", "__kmpc_serialized_parallel", WEFT_PC);
  t_outer[t_serialized++] = m;
  Member inner;
  inner.level = m.level + 1;
  inner.active_level = m.active_level;
  m = inner;
  t_pushed_threads = 0;
}

void __kmpc_end_serialized_parallel(void*, kmp_int32) {
  if (t_serialized > 0) member() = t_outer[--t_serialized];
}

// ---- synchronisation ----

void __kmpc_barrier(void*, kmp_int32) {
  WEFT_PROGRAM_CALL;
  barrier();
}
kmp_int32 __kmpc_cancel_barrier(void*, kmp_int32) {
  __kmpc_barrier(nullptr, 0);
  return 0;
}
kmp_int32 __kmpc_cancel(void*, kmp_int32, kmp_int32) { return 0; }
kmp_int32 __kmpc_cancellationpoint(void*, kmp_int32, kmp_int32) { return 0; }

kmp_int32 __kmpc_master(void*, kmp_int32) { return member().num == 0 ? 1 : 0; }
void __kmpc_end_master(void*, kmp_int32) {}
kmp_int32 __kmpc_masked(void*, kmp_int32, kmp_int32 filter) {
  return static_cast<kmp_int32>(member().num) == filter ? 1 : 0;
}
void __kmpc_end_masked(void*, kmp_int32) {}

kmp_int32 __kmpc_single(void*, kmp_int32) {
  Member& m = member();
  if (lone(m)) return 1;
  WEFT_PROGRAM_CALL;
  return m.team->claim_single(++m.singles) ? 1 : 0;
}
void __kmpc_end_single(void*, kmp_int32) {}

// The single's executor publishes its data; after a barrier the others copy from it with
// the program's function; a second barrier keeps it alive until they have.
void __kmpc_copyprivate(void*, kmp_int32, std::size_t, void* data, void (*copy)(void*, void*),
                        kmp_int32 didit) {
  Member& m = member();
  if (lone(m)) return;
  WEFT_PROGRAM_CALL;
  Team& team = *m.team;
  bool first = false;
  WorkShare& ws = team.enter(m.work_shares++, &first);
  if (didit != 0) ws.copy = data;
  team.unlock();
  team.barrier();
  if (didit == 0) copy(data, ws.copy);
  team.barrier();
  team.leave(ws);
}

// A critical section's lock is the kmp_critical_name (32 bytes) the compiler gives it.
void __kmpc_critical(void*, kmp_int32, void* name) { set_lock(name, WEFT_PC); }
void __kmpc_critical_with_hint(void*, kmp_int32, void* name, std::uint32_t) {
  set_lock(name, WEFT_PC);
}
void __kmpc_end_critical(void*, kmp_int32, void* name) {
  unset_lock(name, WEFT_PC, "__kmpc_end_critical");
}
void __kmpc_atomic_start() { set_lock(atomic_lock(), WEFT_PC); }
void __kmpc_atomic_end() { unset_lock(atomic_lock(), WEFT_PC, "__kmpc_atomic_end"); }

// Reductions by the critical-section method (1): each thread combines its partial result
// into the shared one under the reduction's lock.
kmp_int32 __kmpc_reduce_nowait(void*, kmp_int32, kmp_int32, std::size_t, void*,
                               void (*)(void*, void*), void* lock) {
  set_lock(lock, WEFT_PC);
  return 1;
}
void __kmpc_end_reduce_nowait(void*, kmp_int32, void* lock) {
  unset_lock(lock, WEFT_PC, "__kmpc_end_reduce_nowait");
}
kmp_int32 __kmpc_reduce(void*, kmp_int32, kmp_int32, std::size_t, void*, void (*)(void*, void*),
                        void* lock) {
  set_lock(lock, WEFT_PC);
  return 1;
}
void __kmpc_end_reduce(void*, kmp_int32, void* lock) {
  const std::uintptr_t pc = WEFT_PC;
  unset_lock(lock, pc, "__kmpc_end_reduce");
  weft::intercept::ProgramCall call(pc);
  barrier();
}

// ---- loops ----

#define WEFT_KMPC_LOOPS(suffix, T, S)                                                         \
  void __kmpc_for_static_init_##suffix(void*, kmp_int32, kmp_int32 kind, kmp_int32* last,     \
                                       T* lower, T* upper, S* stride, S incr, S chunk) {      \
    static_init<T, S>(kind, last, lower, upper, stride, incr, chunk);                         \
  }                                                                                           \
  void __kmpc_dispatch_init_##suffix(void*, kmp_int32, int kind, T lb, T ub, S st, S chunk) { \
    WEFT_PROGRAM_CALL;                                                                        \
    dispatch_init<T, S>(kind, lb, ub, st, chunk);                                             \
  }                                                                                           \
  int __kmpc_dispatch_next_##suffix(void*, kmp_int32, kmp_int32* last, T* lb, T* ub, S* st) { \
    WEFT_PROGRAM_CALL;                                                                        \
    return dispatch_next<T, S>(last, lb, ub, st);                                             \
  }                                                                                           \
  void __kmpc_dispatch_fini_##suffix(void*, kmp_int32) {}
WEFT_KMPC_LOOPS(4, std::int32_t, std::int32_t)
WEFT_KMPC_LOOPS(4u, std::uint32_t, std::int32_t)
WEFT_KMPC_LOOPS(8, std::int64_t, std::int64_t)
WEFT_KMPC_LOOPS(8u, std::uint64_t, std::int64_t)
#undef WEFT_KMPC_LOOPS
void __kmpc_for_static_fini(void*, kmp_int32) {}

void __kmpc_ordered(void*, kmp_int32) {
  WEFT_PROGRAM_CALL;
  enter_ordered();
}
void __kmpc_end_ordered(void*, kmp_int32) {}

// ---- tasks: run at once, undeferred ----

void* __kmpc_omp_task_alloc(void*, kmp_int32, kmp_int32 flags, std::size_t task_size,
                            std::size_t shareds_size, kmp_int32 (*entry)(kmp_int32, void*)) {
  const std::size_t head = (task_size + sizeof(void*) - 1) / sizeof(void*) * sizeof(void*);
  auto* block =
      static_cast<TaskBlock*>(std::calloc(1, offsetof(TaskBlock, task) + head + shareds_size));
  block->flags = flags;
  auto* task = reinterpret_cast<KmpTask*>(block->task);
  task->shareds = shareds_size > 0 ? reinterpret_cast<char*>(task) + head : nullptr;
  task->routine = entry;
  return task;
}
kmp_int32 __kmpc_omp_task(void*, kmp_int32, void* task) {
  static_cast<KmpTask*>(task)->routine(static_cast<kmp_int32>(member().num), task);
  finish_task(task);
  return 0;
}
kmp_int32 __kmpc_omp_task_with_deps(void* loc, kmp_int32 gtid, void* task, kmp_int32, void*,
                                    kmp_int32, void*) {
  return __kmpc_omp_task(loc, gtid, task);  // every earlier task is done: its dependences hold
}
// if(0): the program runs the task itself between these.
void __kmpc_omp_task_begin_if0(void*, kmp_int32, void*) {}
void __kmpc_omp_task_complete_if0(void*, kmp_int32, void* task) { finish_task(task); }
void __kmpc_omp_wait_deps(void*, kmp_int32, kmp_int32, void*, kmp_int32, void*) {}
kmp_int32 __kmpc_omp_taskwait(void*, kmp_int32) { return 0; }
kmp_int32 __kmpc_omp_taskyield(void*, kmp_int32, int) { return 0; }
void __kmpc_taskgroup(void*, kmp_int32) {}
void __kmpc_end_taskgroup(void*, kmp_int32) {}

}  // extern "C"
