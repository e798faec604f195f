#include "intercept/openmp_loop.hpp"

namespace weft::intercept::openmp {

Schedule resolve(Schedule s, std::uint64_t* chunk) {
  if (s != Schedule::kAuto) return s;
  *chunk = 0;
  return Schedule::kStatic;
}

namespace {

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

}  // namespace

std::uint64_t trip_count(__int128 start, __int128 end, __int128 incr) {
  if (incr > 0)
    return start < end ? static_cast<std::uint64_t>((end - start + incr - 1) / incr) : 0;
  if (incr < 0)
    return start > end ? static_cast<std::uint64_t>((start - end - incr - 1) / -incr) : 0;
  return 0;
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

void enter_ordered() {
  Member& m = member();
  if (lone(m) || m.loop == nullptr) return;
  m.team->lock();
  m.team->wait_ordered(*m.loop, m.chunk);
  m.team->unlock();
}

}  // namespace weft::intercept::openmp
