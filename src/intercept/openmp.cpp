// libgomp's ABI (the GOMP_* calls gcc emits for OpenMP directives), implemented on the
// team of openmp_team.hpp: libweft comes before libgomp in the lookup order (the wrappers
// link it first, `weft run` preloads it), so a program's calls reach these, and libgomp's
// own threads, futexes and spins never run. Entry points weft does not implement are
// refused in openmp_unsupported.cpp.
#include <cstdint>
#include <cstdlib>

#include "intercept/openmp_icv.hpp"
#include "intercept/openmp_loop.hpp"
#include "intercept/openmp_team.hpp"
#include "intercept/program_call.hpp"
#include "intercept/real.hpp"

using namespace weft::intercept::openmp;

namespace {

using ull = unsigned long long;

// A chunk as the program's [istart, iend).
template <typename T>
void set_bounds(const Member& m, const Chunk& c, T* istart, T* iend) {
  const Bounds b{m.bounds_start, m.bounds_incr};
  *istart = iteration<T>(b, c.begin);
  *iend = iteration<T>(b, c.end);
}

Schedule runtime_schedule(std::uint64_t* chunk) {
  *chunk = icvs().run_chunk;
  return icvs().run_schedule;
}

// A combined parallel loop's body, and the work share its team starts with.
struct ParallelCall {
  void (*fn)(void*);
  void* data;
};
void call_body(void* p) {
  const auto* c = static_cast<const ParallelCall*>(p);
  c->fn(c->data);
}

// GOMP_parallel_loop_*, GOMP_parallel_sections: the team's first work share is the loop
// over [start, start + count * incr), which its members enter at once.
void parallel_loop(void (*fn)(void*), void* data, unsigned num_threads, Schedule schedule,
                   long start, long incr, std::uint64_t count, std::uint64_t chunk,
                   std::uintptr_t pc) {
  WorkShare ws;
  ws.start = static_cast<std::uint64_t>(start);
  ws.incr = static_cast<std::uint64_t>(incr);
  ws.schedule = resolve(schedule, &chunk);
  ws.count = count;
  ws.chunk = chunk;
  ParallelCall call{fn, data};
  run_parallel(team_size(member(), num_threads), call_body, &call, &ws, pc);
}

// Long loops: GOMP_loop_<schedule>_start(start, end, incr, [chunk,] istart, iend).
bool long_start(Schedule s, long start, long end, long incr, long chunk, bool ordered, long* istart,
                long* iend) {
  Member& m = member();
  Chunk c;
  const bool more =
      start_loop(s, trip_count(start, end, incr), static_cast<std::uint64_t>(chunk), ordered, &c);
  m.bounds_start = static_cast<std::uint64_t>(start);
  m.bounds_incr = static_cast<std::uint64_t>(incr);
  if (more) set_bounds(m, c, istart, iend);
  return more;
}

bool long_next(long* istart, long* iend) {
  Member& m = member();
  Chunk c;
  if (!next(&c)) return false;
  set_bounds(m, c, istart, iend);
  return true;
}

std::uint64_t ull_trip_count(bool up, ull start, ull end, ull incr) {
  if (up) return trip_count(start, end, incr);
  return trip_count(-static_cast<__int128>(start), -static_cast<__int128>(end),
                    static_cast<__int128>(-incr));
}

bool ull_start(Schedule s, bool up, ull start, ull end, ull incr, ull chunk, bool ordered,
               ull* istart, ull* iend) {
  Member& m = member();
  Chunk c;
  const bool more = start_loop(s, ull_trip_count(up, start, end, incr), chunk, ordered, &c);
  m.bounds_start = start;
  m.bounds_incr = incr;
  if (more) set_bounds(m, c, istart, iend);
  return more;
}

bool ull_next(ull* istart, ull* iend) {
  Member& m = member();
  Chunk c;
  if (!next(&c)) return false;
  set_bounds(m, c, istart, iend);
  return true;
}

}  // namespace

extern "C" {

// ---- parallel ----

void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags) {
  ParallelCall call{fn, data};
  run_parallel(team_size(member(), num_threads), call_body, &call, nullptr, WEFT_PC);
}

void GOMP_barrier() {
  Member& m = member();
  if (m.team == nullptr) return;
  WEFT_PROGRAM_CALL;
  m.team->barrier();
}

// Cancellation is off (omp_get_cancellation() is false, as with OMP_CANCELLATION unset):
// a cancel does nothing, and nothing is ever cancelled.
bool GOMP_cancel(int, bool) { return false; }
bool GOMP_cancellation_point(int) { return false; }
bool GOMP_barrier_cancel() {
  GOMP_barrier();
  return false;
}

// ---- loops ----

#define WEFT_LONG_LOOP(name, schedule, ordered)                                                    \
  bool GOMP_loop_##name##_start(long start, long end, long incr, long chunk, long* istart,         \
                                long* iend) {                                                      \
    WEFT_PROGRAM_CALL;                                                                             \
    return long_start(schedule, start, end, incr, chunk, ordered, istart, iend);                   \
  }                                                                                                \
  bool GOMP_loop_##name##_next(long* istart, long* iend) {                                         \
    WEFT_PROGRAM_CALL;                                                                             \
    return long_next(istart, iend);                                                                \
  }                                                                                                \
  bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr, ull chunk, ull* istart, \
                                    ull* iend) {                                                   \
    WEFT_PROGRAM_CALL;                                                                             \
    return ull_start(schedule, up, start, end, incr, chunk, ordered, istart, iend);                \
  }                                                                                                \
  bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                                       \
    WEFT_PROGRAM_CALL;                                                                             \
    return ull_next(istart, iend);                                                                 \
  }
#define WEFT_RUNTIME_LOOP(name, ordered)                                                     \
  bool GOMP_loop_##name##_start(long start, long end, long incr, long* istart, long* iend) { \
    WEFT_PROGRAM_CALL;                                                                       \
    std::uint64_t chunk;                                                                     \
    const Schedule s = runtime_schedule(&chunk);                                             \
    return long_start(s, start, end, incr, static_cast<long>(chunk), ordered, istart, iend); \
  }                                                                                          \
  bool GOMP_loop_##name##_next(long* istart, long* iend) {                                   \
    WEFT_PROGRAM_CALL;                                                                       \
    return long_next(istart, iend);                                                          \
  }                                                                                          \
  bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr, ull* istart,      \
                                    ull* iend) {                                             \
    WEFT_PROGRAM_CALL;                                                                       \
    std::uint64_t chunk;                                                                     \
    const Schedule s = runtime_schedule(&chunk);                                             \
    return ull_start(s, up, start, end, incr, chunk, ordered, istart, iend);                 \
  }                                                                                          \
  bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                                 \
    WEFT_PROGRAM_CALL;                                                                       \
    return ull_next(istart, iend);                                                           \
  }

WEFT_LONG_LOOP(static, Schedule::kStatic, false)
WEFT_LONG_LOOP(dynamic, Schedule::kDynamic, false)
WEFT_LONG_LOOP(guided, Schedule::kGuided, false)
WEFT_LONG_LOOP(nonmonotonic_dynamic, Schedule::kDynamic, false)
WEFT_LONG_LOOP(nonmonotonic_guided, Schedule::kGuided, false)
WEFT_LONG_LOOP(ordered_static, Schedule::kStatic, true)
WEFT_LONG_LOOP(ordered_dynamic, Schedule::kDynamic, true)
WEFT_LONG_LOOP(ordered_guided, Schedule::kGuided, true)
WEFT_RUNTIME_LOOP(runtime, false)
WEFT_RUNTIME_LOOP(nonmonotonic_runtime, false)
WEFT_RUNTIME_LOOP(maybe_nonmonotonic_runtime, false)
WEFT_RUNTIME_LOOP(ordered_runtime, true)

void GOMP_loop_end() {
  WEFT_PROGRAM_CALL;
  end_loop(true);
}
void GOMP_loop_end_nowait() {
  WEFT_PROGRAM_CALL;
  end_loop(false);
}
bool GOMP_loop_end_cancel() {
  GOMP_loop_end();
  return false;
}

#define WEFT_PARALLEL_LOOP(name, schedule)                                                        \
  void GOMP_parallel_loop_##name(void (*fn)(void*), void* data, unsigned num_threads, long start, \
                                 long end, long incr, long chunk, unsigned) {                     \
    parallel_loop(fn, data, num_threads, schedule, start, incr, trip_count(start, end, incr),     \
                  static_cast<std::uint64_t>(chunk), WEFT_PC);                                    \
  }
#define WEFT_PARALLEL_RUNTIME_LOOP(name)                                                          \
  void GOMP_parallel_loop_##name(void (*fn)(void*), void* data, unsigned num_threads, long start, \
                                 long end, long incr, unsigned) {                                 \
    std::uint64_t chunk;                                                                          \
    const Schedule s = runtime_schedule(&chunk);                                                  \
    parallel_loop(fn, data, num_threads, s, start, incr, trip_count(start, end, incr), chunk,     \
                  WEFT_PC);                                                                       \
  }
WEFT_PARALLEL_LOOP(static, Schedule::kStatic)
WEFT_PARALLEL_LOOP(dynamic, Schedule::kDynamic)
WEFT_PARALLEL_LOOP(guided, Schedule::kGuided)
WEFT_PARALLEL_LOOP(nonmonotonic_dynamic, Schedule::kDynamic)
WEFT_PARALLEL_LOOP(nonmonotonic_guided, Schedule::kGuided)
WEFT_PARALLEL_RUNTIME_LOOP(runtime)
WEFT_PARALLEL_RUNTIME_LOOP(nonmonotonic_runtime)
WEFT_PARALLEL_RUNTIME_LOOP(maybe_nonmonotonic_runtime)

// ---- ordered ----

void GOMP_ordered_start() {
  WEFT_PROGRAM_CALL;
  enter_ordered();
}
void GOMP_ordered_end() {}

// ---- sections: a loop over the section numbers, one at a time ----

// Outside a region its one thread runs every section in turn: its chunk counts them.
unsigned GOMP_sections_start(unsigned count) {
  Member& m = member();
  if (lone(m)) {
    m.chunk = Chunk{0, count};
    return count > 0 ? 1 : 0;
  }
  WEFT_PROGRAM_CALL;
  Chunk c;
  return start_loop(Schedule::kDynamic, count, 1, false, &c) ? static_cast<unsigned>(c.begin + 1)
                                                             : 0;
}
unsigned GOMP_sections_next() {
  Member& m = member();
  if (lone(m)) return ++m.chunk.begin < m.chunk.end ? static_cast<unsigned>(m.chunk.begin + 1) : 0;
  WEFT_PROGRAM_CALL;
  Chunk c;
  return next(&c) ? static_cast<unsigned>(c.begin + 1) : 0;
}
void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads, unsigned count,
                            unsigned) {
  parallel_loop(fn, data, num_threads, Schedule::kDynamic, 0, 1, count, 1, WEFT_PC);
}
void GOMP_sections_end() { GOMP_loop_end(); }
void GOMP_sections_end_nowait() { GOMP_loop_end_nowait(); }
bool GOMP_sections_end_cancel() {
  GOMP_loop_end();
  return false;
}

// ---- single ----

bool GOMP_single_start() {
  Member& m = member();
  if (lone(m)) return true;
  WEFT_PROGRAM_CALL;
  return m.team->claim_single(++m.singles);
}

// copyprivate: the executing thread gets nullptr and hands its data to the others through
// the construct's work share, between two barriers.
void* GOMP_single_copy_start() {
  Member& m = member();
  if (lone(m)) return nullptr;
  WEFT_PROGRAM_CALL;
  Team& team = *m.team;
  bool first = false;
  WorkShare& ws = team.enter(m.work_shares++, &first);
  team.unlock();
  if (first) {
    m.loop = &ws;
    return nullptr;
  }
  team.barrier();
  void* data = ws.copy;
  team.leave(ws);
  return data;
}

void GOMP_single_copy_end(void* data) {
  Member& m = member();
  if (lone(m) || m.loop == nullptr) return;
  WEFT_PROGRAM_CALL;
  WorkShare& ws = *m.loop;
  m.loop = nullptr;
  ws.copy = data;  // read only after the barrier
  m.team->barrier();
  m.team->leave(ws);
}

// ---- tasks: run at once, undeferred, which OpenMP allows for any task ----

void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
               long arg_align, bool, unsigned flags, void**, int, void* detach) {
  if (detach != nullptr) unsupported("task detach", "GOMP_task", WEFT_PC);
  if (cpyfn == nullptr) {
    fn(data);
    return;
  }
  // firstprivate copies made by the program's copy function, in a block of its own
  const std::size_t align =
      arg_align > 0 ? static_cast<std::size_t>(arg_align) : alignof(std::max_align_t);
  const std::size_t size = (static_cast<std::size_t>(arg_size) + align - 1) / align * align;
  void* block = std::aligned_alloc(align, size == 0 ? align : size);
  cpyfn(block, data);
  fn(block);
  std::free(block);
}
// Every task ran to its end where it was created: nothing is ever left to wait for.
void GOMP_taskwait() {}
void GOMP_taskwait_depend(void**) {}
void GOMP_taskyield() {}
void GOMP_taskgroup_start() {}
void GOMP_taskgroup_end() {}

}  // extern "C"
