// libgomp's ABI (the GOMP_* calls gcc emits for OpenMP directives), implemented on the
// team of openmp_team.hpp: libweft comes before libgomp in the lookup order (the wrappers
// link it first, `weft run` preloads it), so a program's calls reach these, and libgomp's
// own threads, futexes and spins never run. Entry points weft does not implement are
// refused in openmp_unsupported.cpp.
#include <cstdint>
#include <cstdlib>

#include "intercept/openmp_icv.hpp"
#include "intercept/openmp_team.hpp"
#include "intercept/program_call.hpp"
#include "intercept/real.hpp"

using namespace weft::intercept::openmp;

namespace {

using ull = unsigned long long;

// Iterations of `for (i = start; i < end (or > end); i += incr)`, in 128 bits: no overflow.
std::uint64_t trip_count(__int128 start, __int128 end, __int128 incr) {
  if (incr > 0) return start < end ? static_cast<std::uint64_t>((end - start + incr - 1) / incr) : 0;
  if (incr < 0) return start > end ? static_cast<std::uint64_t>((start - end - incr - 1) / -incr) : 0;
  return 0;
}

// A loop as the program wrote it, to turn chunks (counted from 0) into its bounds.
struct Bounds {
  std::uint64_t start;
  std::uint64_t incr;  // two's complement: a negative step of a signed or downward loop
};

template <typename T>
void bounds_of(const Bounds& b, const Chunk& c, T* istart, T* iend) {
  *istart = static_cast<T>(b.start + c.begin * b.incr);
  *iend = static_cast<T>(b.start + c.end * b.incr);
}

Schedule resolve(Schedule s, std::uint64_t* chunk) {
  if (s != Schedule::kAuto) return s;
  *chunk = 0;
  return Schedule::kStatic;
}

// The calling thread's next chunk of its current loop, with the team's lock held; first
// lets the next chunks of an ordered loop run their ordered regions.
bool take_chunk(Team& team, Member& m, Chunk* out) {
  WorkShare& ws = *m.loop;
  if (ws.ordered && m.chunk.begin < m.chunk.end) team.pass_ordered(ws, m.chunk);
  m.chunk = Chunk{};
  if (!next_chunk(team, ws, m, out)) return false;
  m.chunk = *out;
  return true;
}

// The next chunk of the current loop (GOMP_loop_*_next, GOMP_sections_next). Outside a
// team: a team of one, which ran its loop whole at the start.
bool next(Chunk* out) {
  Member& m = member();
  if (m.team == nullptr || m.loop == nullptr) return false;
  m.team->lock();
  const bool more = take_chunk(*m.team, m, out);
  m.team->unlock();
  return more;
}

// Outside a parallel region a work-sharing construct is run by its one thread: a team of
// one that lasts as long as the construct would need a frame to live in, so the loop is
// handed out whole instead.
bool lone(Member& m) { return m.team == nullptr; }

// Enters a new loop (GOMP_loop_*_start), and takes the thread's first chunk.
bool start_loop(Schedule schedule, std::uint64_t count, std::uint64_t chunk, bool ordered,
                Chunk* out) {
  Member& m = member();
  if (lone(m)) {
    *out = Chunk{0, count};
    return count > 0;
  }
  Team& team = *m.team;
  bool first = false;
  WorkShare& ws = team.enter(m.work_shares++, &first);
  if (first) {
    ws.schedule = resolve(schedule, &chunk);
    ws.count = count;
    ws.chunk = chunk;
    ws.ordered = ordered;
  }
  m.loop = &ws;
  m.chunk = Chunk{};
  m.static_trip = 0;
  const bool more = take_chunk(team, m, out);
  team.unlock();
  return more;
}

// Leaves the current loop or sections (GOMP_loop_end, ..._nowait, GOMP_sections_end...).
void end_loop(bool wait) {
  Member& m = member();
  if (lone(m) || m.loop == nullptr) return;
  WorkShare& ws = *m.loop;
  if (ws.ordered && m.chunk.begin < m.chunk.end) {
    m.team->lock();
    m.team->pass_ordered(ws, m.chunk);
    m.team->unlock();
  }
  m.loop = nullptr;
  m.chunk = Chunk{};
  if (wait) m.team->barrier();
  m.team->leave(ws);
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

void parallel_loop(void (*fn)(void*), void* data, unsigned num_threads, Schedule schedule,
                   std::uint64_t count, std::uint64_t chunk, std::uintptr_t pc) {
  WorkShare ws;
  ws.schedule = resolve(schedule, &chunk);
  ws.count = count;
  ws.chunk = chunk;
  ParallelCall call{fn, data};
  run_parallel(team_size(member(), num_threads), call_body, &call, &ws, pc);
}

// Long loops: GOMP_loop_<schedule>_start(start, end, incr, [chunk,] istart, iend).
bool long_start(Schedule s, long start, long end, long incr, long chunk, bool ordered,
                long* istart, long* iend) {
  Member& m = member();
  Chunk c;
  const bool more = start_loop(s, trip_count(start, end, incr), static_cast<std::uint64_t>(chunk),
                               ordered, &c);
  m.bounds_start = static_cast<std::uint64_t>(start);
  m.bounds_incr = static_cast<std::uint64_t>(incr);
  if (more) bounds_of(Bounds{m.bounds_start, m.bounds_incr}, c, istart, iend);
  return more;
}

bool long_next(long* istart, long* iend) {
  Member& m = member();
  Chunk c;
  if (!next(&c)) return false;
  bounds_of(Bounds{m.bounds_start, m.bounds_incr}, c, istart, iend);
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
  if (more) bounds_of(Bounds{m.bounds_start, m.bounds_incr}, c, istart, iend);
  return more;
}

bool ull_next(ull* istart, ull* iend) {
  Member& m = member();
  Chunk c;
  if (!next(&c)) return false;
  bounds_of(Bounds{m.bounds_start, m.bounds_incr}, c, istart, iend);
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

#define WEFT_LONG_LOOP(name, schedule, ordered)                                                \
  bool GOMP_loop_##name##_start(long start, long end, long incr, long chunk, long* istart,    \
                                long* iend) {                                                 \
    WEFT_PROGRAM_CALL;                                                                        \
    return long_start(schedule, start, end, incr, chunk, ordered, istart, iend);             \
  }                                                                                           \
  bool GOMP_loop_##name##_next(long* istart, long* iend) {                                    \
    WEFT_PROGRAM_CALL;                                                                        \
    return long_next(istart, iend);                                                           \
  }                                                                                           \
  bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr, ull chunk,         \
                                    ull* istart, ull* iend) {                                 \
    WEFT_PROGRAM_CALL;                                                                        \
    return ull_start(schedule, up, start, end, incr, chunk, ordered, istart, iend);          \
  }                                                                                           \
  bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                                  \
    WEFT_PROGRAM_CALL;                                                                        \
    return ull_next(istart, iend);                                                            \
  }
#define WEFT_RUNTIME_LOOP(name, ordered)                                                       \
  bool GOMP_loop_##name##_start(long start, long end, long incr, long* istart, long* iend) {   \
    WEFT_PROGRAM_CALL;                                                                        \
    std::uint64_t chunk;                                                                      \
    const Schedule s = runtime_schedule(&chunk);                                              \
    return long_start(s, start, end, incr, static_cast<long>(chunk), ordered, istart, iend); \
  }                                                                                           \
  bool GOMP_loop_##name##_next(long* istart, long* iend) {                                    \
    WEFT_PROGRAM_CALL;                                                                        \
    return long_next(istart, iend);                                                           \
  }                                                                                           \
  bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr, ull* istart,       \
                                    ull* iend) {                                              \
    WEFT_PROGRAM_CALL;                                                                        \
    std::uint64_t chunk;                                                                      \
    const Schedule s = runtime_schedule(&chunk);                                              \
    return ull_start(s, up, start, end, incr, chunk, ordered, istart, iend);                 \
  }                                                                                           \
  bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) {                                  \
    WEFT_PROGRAM_CALL;                                                                        \
    return ull_next(istart, iend);                                                            \
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

#define WEFT_PARALLEL_LOOP(name, schedule)                                                     \
  void GOMP_parallel_loop_##name(void (*fn)(void*), void* data, unsigned num_threads,          \
                                 long start, long end, long incr, long chunk, unsigned) {     \
    parallel_loop(fn, data, num_threads, schedule, trip_count(start, end, incr),              \
                  static_cast<std::uint64_t>(chunk), WEFT_PC);                                \
    (void)0;                                                                                  \
  }
#define WEFT_PARALLEL_RUNTIME_LOOP(name)                                                       \
  void GOMP_parallel_loop_##name(void (*fn)(void*), void* data, unsigned num_threads,          \
                                 long start, long end, long incr, unsigned) {                 \
    std::uint64_t chunk;                                                                      \
    const Schedule s = runtime_schedule(&chunk);                                              \
    parallel_loop(fn, data, num_threads, s, trip_count(start, end, incr), chunk, WEFT_PC);    \
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
  Member& m = member();
  if (lone(m) || m.loop == nullptr) return;
  WEFT_PROGRAM_CALL;
  m.team->lock();
  m.team->wait_ordered(*m.loop, m.chunk);
  m.team->unlock();
}
void GOMP_ordered_end() {}

// ---- sections: a loop over the section numbers, one at a time ----

unsigned GOMP_sections_start(unsigned count) {
  WEFT_PROGRAM_CALL;
  Chunk c;
  return start_loop(Schedule::kDynamic, count, 1, false, &c) ? static_cast<unsigned>(c.begin + 1) : 0;
}
unsigned GOMP_sections_next() {
  WEFT_PROGRAM_CALL;
  Member& m = member();
  if (lone(m)) return 0;
  Chunk c;
  return next(&c) ? static_cast<unsigned>(c.begin + 1) : 0;
}
void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads, unsigned count,
                            unsigned) {
  parallel_loop(fn, data, num_threads, Schedule::kDynamic, count, 1, WEFT_PC);
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
  const std::size_t align = arg_align > 0 ? static_cast<std::size_t>(arg_align) : alignof(std::max_align_t);
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
