#pragma once
// A work-sharing loop (or sections) as each OpenMP ABI's entry points drive it: started,
// handed out chunk by chunk, left. Iterations are counted from 0; each ABI turns them into
// its program's bounds.
#include <cstdint>

#include "intercept/openmp_team.hpp"

namespace weft::intercept::openmp {

// Iterations of `for (i = start; i < end (or > end); i += incr)`, in 128 bits: no overflow.
std::uint64_t trip_count(__int128 start, __int128 end, __int128 incr);

// A loop as the program wrote it, to turn chunks (counted from 0) into its bounds.
struct Bounds {
  std::uint64_t start;
  std::uint64_t incr;  // two's complement: a negative step of a signed or downward loop
};

// The program's value of iteration i.
template <typename T>
T iteration(const Bounds& b, std::uint64_t i) {
  return static_cast<T>(b.start + i * b.incr);
}

// Outside a parallel region (or in a serialized one) a work-sharing construct is run by
// its one thread, which gets the whole loop at once.
inline bool lone(const Member& m) { return m.team == nullptr; }

// schedule(auto) is weft's choice: static blocks (chunk 0).
Schedule resolve(Schedule s, std::uint64_t* chunk);

// Enters a new loop and takes the calling thread's first chunk (false: none).
bool start_loop(Schedule schedule, std::uint64_t count, std::uint64_t chunk, bool ordered,
                Chunk* out);
// Its next chunk (false: none left).
bool next(Chunk* out);
// Leaves it, after the team's barrier when `wait`.
void end_loop(bool wait);
// Ordered loops: waits until the iterations before the caller's chunk ran their ordered
// regions (GOMP_ordered_start, __kmpc_ordered).
void enter_ordered();

}  // namespace weft::intercept::openmp
