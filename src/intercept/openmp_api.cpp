// OpenMP's user API (omp_get_thread_num, omp_set_num_threads, ...) over weft's teams, and
// the internal control variables, read from OMP_NUM_THREADS and OMP_SCHEDULE.
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "intercept/openmp_icv.hpp"
#include "intercept/real.hpp"

using namespace weft::intercept;
using namespace weft::intercept::openmp;

namespace {

unsigned positive(const char* text, unsigned fallback) {
  if (text == nullptr) return fallback;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  return end != text && v > 0 ? static_cast<unsigned>(v) : fallback;
}

Icvs read_environment() {
  Icvs icvs;
  // "4" or a list for nested levels ("4,2"): its first.
  icvs.nthreads = positive(std::getenv("OMP_NUM_THREADS"), icvs.nthreads);
  if (const char* s = std::getenv("OMP_SCHEDULE")) {
    std::string kind(s);
    if (const auto colon = kind.find(':'); colon != std::string::npos) kind.erase(0, colon + 1);
    const auto comma = kind.find(',');
    const std::string name = kind.substr(0, comma);
    if (name == "static")
      icvs.run_schedule = Schedule::kStatic;
    else if (name == "dynamic")
      icvs.run_schedule = Schedule::kDynamic;
    else if (name == "guided")
      icvs.run_schedule = Schedule::kGuided;
    else if (name == "auto")
      icvs.run_schedule = Schedule::kAuto;
    icvs.run_chunk = icvs.run_schedule == Schedule::kStatic ? 0 : 1;
    if (comma != std::string::npos) icvs.run_chunk = positive(kind.c_str() + comma + 1, 1);
  }
  return icvs;
}

// Read when the runtime loads: never a function-local static's guard in the program's run.
Icvs g_icvs;
__attribute__((constructor)) void load_icvs() { g_icvs = read_environment(); }

}  // namespace

namespace weft::intercept::openmp {

Icvs& icvs() { return g_icvs; }

unsigned team_size(const Member& m, unsigned requested) {
  if (m.active_level >= icvs().max_active_levels) return 1;
  const unsigned n = requested != 0 ? requested : icvs().nthreads;
  return n < Team::kMaxThreads ? n : Team::kMaxThreads;
}

void unsupported(const char* construct, const char* entry, std::uintptr_t pc) {
  // An API function is its own construct.
  const bool function = std::strcmp(construct, entry) == 0;
  const std::string why = function ? std::string("OpenMP function `") + entry + "` is not supported"
                                   : std::string("OpenMP construct `") + construct + "` (" + entry +
                                         ") is not supported";
  if (ThreadState* self = weft::rt::controlled_thread())
    outside_control(self, pc, entry, why + " by weft's OpenMP runtime");
  std::fprintf(stderr, "weft: %s\n", why.c_str());
  std::_Exit(2);
}

}  // namespace weft::intercept::openmp

extern "C" {

int omp_get_thread_num() { return static_cast<int>(member().num); }
int omp_get_num_threads() {
  const Member& m = member();
  return m.team == nullptr ? 1 : static_cast<int>(m.team->size());
}
// The nthreads ICV, inside a region too (where a nested region would get one thread).
int omp_get_max_threads() { return static_cast<int>(team_size(Member{}, 0)); }
void omp_set_num_threads(int n) {
  if (n > 0) icvs().nthreads = static_cast<unsigned>(n);
}
int omp_in_parallel() { return member().active_level > 0 ? 1 : 0; }
int omp_get_level() { return static_cast<int>(member().level); }
int omp_get_active_level() { return static_cast<int>(member().active_level); }
int omp_get_ancestor_thread_num(int level) {
  const Member& m = member();
  if (level < 0 || level > static_cast<int>(m.level)) return -1;
  const Team* team = m.team;
  unsigned num = m.num;
  for (int l = static_cast<int>(m.level); l > level && team != nullptr; --l) {
    num = team->parent_num();
    team = team->parent();
  }
  return static_cast<int>(num);
}
int omp_get_team_size(int level) {
  const Member& m = member();
  if (level < 0 || level > static_cast<int>(m.level)) return -1;
  const Team* team = m.team;
  for (int l = static_cast<int>(m.level); l > level && team != nullptr; --l) team = team->parent();
  return team == nullptr ? 1 : static_cast<int>(team->size());
}
int omp_get_thread_limit() { return static_cast<int>(Team::kMaxThreads); }
int omp_get_num_procs() { return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)); }
void omp_set_dynamic(int on) { icvs().dynamic = on != 0; }
int omp_get_dynamic() { return icvs().dynamic ? 1 : 0; }
// Nested regions run with a team of one (legal, and what keeps the search small).
void omp_set_nested(int) {}
int omp_get_nested() { return 0; }
void omp_set_max_active_levels(int) {}
int omp_get_max_active_levels() { return static_cast<int>(icvs().max_active_levels); }
int omp_get_supported_active_levels() { return static_cast<int>(icvs().max_active_levels); }
void omp_set_schedule(int kind, int chunk) {
  const int k = kind & 0x7fffffff;  // without omp_sched_monotonic
  if (k < 1 || k > 4) return;
  icvs().run_schedule = static_cast<Schedule>(k);
  icvs().run_chunk = chunk > 0 ? static_cast<std::uint64_t>(chunk) : (k == 1 ? 0 : 1);
}
void omp_get_schedule(int* kind, int* chunk) {
  *kind = static_cast<int>(icvs().run_schedule);
  *chunk = static_cast<int>(icvs().run_chunk);
}
int omp_get_cancellation() { return 0; }
int omp_in_final() { return 0; }
int omp_get_proc_bind() { return 0; }
int omp_get_num_places() { return 0; }
int omp_get_place_num() { return -1; }
int omp_get_partition_num_places() { return 0; }
int omp_get_max_task_priority() { return 0; }
// The host is the only device.
int omp_get_num_devices() { return 0; }
int omp_get_default_device() { return 0; }
void omp_set_default_device(int) {}
int omp_get_device_num() { return omp_get_num_devices(); }
int omp_get_initial_device() { return omp_get_num_devices(); }
int omp_is_initial_device() { return 1; }
int omp_get_num_teams() { return 1; }
int omp_get_team_num() { return 0; }
int omp_pause_resource(int, int) { return 0; }
int omp_pause_resource_all(int) { return 0; }

// Wall-clock time: weft's virtual clock under weft (clock_gettime is interposed).
double omp_get_wtime() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
double omp_get_wtick() { return 1e-9; }

}  // extern "C"
