#pragma once
// OpenMP's internal control variables as weft's OpenMP runtime keeps them: one set for the
// process (the program's omp_set_* calls change it for every thread).
#include "intercept/openmp_team.hpp"

namespace weft::intercept::openmp {

struct Icvs {
  // Team size when a parallel region names none: OMP_NUM_THREADS, else 2. Every thread is
  // another dimension of the search: two show most interleaving bugs of a team, and more
  // multiply the schedules to explore.
  unsigned nthreads = 2;
  Schedule run_schedule = Schedule::kDynamic;  // schedule(runtime): OMP_SCHEDULE
  std::uint64_t run_chunk = 1;
  bool dynamic = false;
  unsigned max_active_levels = 1;  // nested regions run with a team of one
};

Icvs& icvs();

// The size of a team a parallel region asks for with `requested` threads (0: as many as
// the ICVs say) when the caller is `m`: 1 inside an active region.
unsigned team_size(const Member& m, unsigned requested);

// A call of the OpenMP runtime weft does not implement: a tool error naming `construct`
// and the entry point, exit 2.
[[noreturn]] void unsupported(const char* construct, const char* entry, std::uintptr_t pc);

}  // namespace weft::intercept::openmp
