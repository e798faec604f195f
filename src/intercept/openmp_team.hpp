#pragma once
// An OpenMP team, as weft's OpenMP runtime (openmp.cpp, openmp_kmpc.cpp) runs it: its
// threads are pthread threads, its barrier a pthread barrier, and the work shares its
// loops and sections hand out sit behind a pthread mutex, all of which weft controls when
// the program runs under it (and which work for real when it does not). libgomp's and
// libomp's own futexes and spins are never used.
#include <pthread.h>

#include <cstdint>

namespace weft::intercept::openmp {

// omp_sched_t's values.
enum class Schedule : int { kStatic = 1, kDynamic = 2, kGuided = 3, kAuto = 4 };

// Iterations [begin, end) of a work-sharing construct, counted from 0.
struct Chunk {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// A loop or a sections construct as its team shares it.
struct WorkShare {
  std::uint64_t index = 0;  // the how-manieth work share of the team this is
  bool used = false;
  unsigned left = 0;  // threads done with it
  Schedule schedule = Schedule::kStatic;
  bool ordered = false;
  std::uint64_t count = 0;         // iterations
  std::uint64_t chunk = 0;         // 0: static blocks of count / team size
  std::uint64_t next = 0;          // the first iteration not handed out (dynamic, guided)
  std::uint64_t ordered_next = 0;  // the first iteration whose ordered regions may not run yet
  void* copy = nullptr;            // single copyprivate: the executing thread's data
  // A combined parallel loop's first iteration and step (Member::bounds_*), for its members.
  std::uint64_t start = 0;
  std::uint64_t incr = 0;
};

class Team {
 public:
  static constexpr unsigned kMaxThreads = 64;

  Team(unsigned size, Team* parent, unsigned parent_num);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  unsigned size() const { return size_; }
  Team* parent() const { return parent_; }
  unsigned parent_num() const { return parent_num_; }

  void barrier();
  // A combined parallel loop's or sections' work share, set up before the threads start
  // (they go straight to GOMP_loop_*_next): every member's first.
  WorkShare& preset(const WorkShare& ws);
  void lock();
  void unlock();
  // The work share a thread meets as its `index`-th, entered with the lock held (the
  // caller unlocks); `first` says the caller is the first to meet it and initialises it.
  // Waits while its slot still holds an older one some thread has not left.
  WorkShare& enter(std::uint64_t index, bool* first);
  void leave(WorkShare& ws);
  // Whether the caller, at its `nth` single construct, is the first to reach it.
  bool claim_single(std::uint64_t nth);
  // Ordered loops: waits (lock held) until the iterations before `chunk` have passed
  // their ordered regions; pass_ordered lets the ones after it run theirs.
  void wait_ordered(WorkShare& ws, const Chunk& chunk);
  void pass_ordered(WorkShare& ws, const Chunk& chunk);

 private:
  static constexpr unsigned kSlots = 8;  // work shares a thread may run ahead (nowait)

  unsigned size_;
  Team* parent_;
  unsigned parent_num_;
  std::uint64_t singles_ = 0;
  pthread_mutex_t mutex_;
  pthread_cond_t changed_;
  pthread_barrier_t barrier_;
  WorkShare slots_[kSlots];
};

// What a thread knows of the OpenMP construct it is in.
struct Member {
  Team* team = nullptr;  // nullptr: outside any parallel region
  unsigned num = 0;
  unsigned level = 0;  // nesting of parallel regions (inactive ones count)
  unsigned active_level = 0;
  std::uint64_t work_shares = 0;  // met so far in this region
  std::uint64_t singles = 0;
  WorkShare* loop = nullptr;      // the loop or sections it is in
  Chunk chunk;                    // its current chunk of that loop
  std::uint64_t static_trip = 0;  // static schedules: chunks it took so far
  // The loop's first iteration and step as the program wrote them (two's complement).
  std::uint64_t bounds_start = 0;
  std::uint64_t bounds_incr = 0;
};

// The calling thread's.
Member& member();

// The next chunk of ws for the calling thread, or false; dynamic and guided schedules
// with the team's lock held.
bool next_chunk(const Team& team, WorkShare& ws, Member& m, Chunk* out);

// Runs body(arg) on a new team of `size` threads (at most Team::kMaxThreads), the caller
// its thread 0, and returns when all have finished. `first`: the team's first work share,
// already entered by every member. `pc`: the program's call, where the threads' creation
// and joins are placed.
void run_parallel(unsigned size, void (*body)(void*), void* arg, const WorkShare* first,
                  std::uintptr_t pc);

}  // namespace weft::intercept::openmp
