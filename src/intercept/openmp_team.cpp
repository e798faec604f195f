#include "intercept/openmp_team.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "intercept/program_call.hpp"

namespace weft::intercept::openmp {

namespace {

constinit thread_local Member t_member __attribute__((tls_model("initial-exec")));

struct MemberStart {
  void (*body)(void*);
  void* arg;
  Member member;
};

void* member_main(void* p) {
  const auto* start = static_cast<const MemberStart*>(p);
  t_member = start->member;
  start->body(start->arg);
  return nullptr;
}

}  // namespace

Member& member() { return t_member; }

Team::Team(unsigned size, Team* parent, unsigned parent_num)
    : size_(size), parent_(parent), parent_num_(parent_num) {
  pthread_mutex_init(&mutex_, nullptr);
  pthread_cond_init(&changed_, nullptr);
  pthread_barrier_init(&barrier_, nullptr, size);
}

Team::~Team() {
  pthread_barrier_destroy(&barrier_);
  pthread_cond_destroy(&changed_);
  pthread_mutex_destroy(&mutex_);
}

void Team::barrier() {
  if (size_ > 1) pthread_barrier_wait(&barrier_);
}

WorkShare& Team::preset(const WorkShare& ws) {
  slots_[0] = ws;
  slots_[0].index = 0;
  slots_[0].used = true;
  return slots_[0];
}

void Team::lock() { pthread_mutex_lock(&mutex_); }
void Team::unlock() { pthread_mutex_unlock(&mutex_); }

WorkShare& Team::enter(std::uint64_t index, bool* first) {
  lock();
  WorkShare& ws = slots_[index % kSlots];
  while (ws.used && ws.index != index) pthread_cond_wait(&changed_, &mutex_);
  *first = !ws.used;
  if (*first) {
    ws = WorkShare{};
    ws.index = index;
    ws.used = true;
  }
  return ws;
}

void Team::leave(WorkShare& ws) {
  lock();
  if (++ws.left == size_) {
    ws.used = false;
    pthread_cond_broadcast(&changed_);
  }
  unlock();
}

bool Team::claim_single(std::uint64_t nth) {
  if (size_ == 1) return true;
  lock();
  const bool mine = nth > singles_;
  if (mine) singles_ = nth;
  unlock();
  return mine;
}

void Team::wait_ordered(WorkShare& ws, const Chunk& chunk) {
  while (ws.ordered_next != chunk.begin) pthread_cond_wait(&changed_, &mutex_);
}

void Team::pass_ordered(WorkShare& ws, const Chunk& chunk) {
  wait_ordered(ws, chunk);
  ws.ordered_next = chunk.end;
  pthread_cond_broadcast(&changed_);
}

void run_parallel(unsigned size, void (*body)(void*), void* arg, const WorkShare* first,
                  std::uintptr_t pc) {
  Member& self = member();
  const Member outer = self;
  Team team(size, outer.team, outer.num);
  Member inner;
  inner.team = &team;
  inner.level = outer.level + 1;
  inner.active_level = outer.active_level + (size > 1 ? 1 : 0);
  if (first != nullptr) {
    inner.loop = &team.preset(*first);
    inner.work_shares = 1;
    inner.bounds_start = first->start;
    inner.bounds_incr = first->incr;
  }
  MemberStart starts[Team::kMaxThreads];
  pthread_t threads[Team::kMaxThreads];
  for (unsigned i = 1; i < size; ++i) {
    starts[i] = MemberStart{body, arg, inner};
    starts[i].member.num = i;
    ProgramCall call(pc);
    if (pthread_create(&threads[i], nullptr, member_main, &starts[i]) != 0) {
      std::fprintf(stderr, "weft: cannot create OpenMP thread %u of %u\n", i, size);
      std::abort();
    }
  }
  self = inner;
  body(arg);
  for (unsigned i = 1; i < size; ++i) {
    ProgramCall call(pc);
    pthread_join(threads[i], nullptr);
  }
  self = outer;
}

bool next_chunk(const Team& team, WorkShare& ws, Member& m, Chunk* out) {
  const std::uint64_t n = team.size();
  switch (ws.schedule) {
    case Schedule::kStatic:
    case Schedule::kAuto: {
      const std::uint64_t trip = m.static_trip++;
      if (ws.chunk == 0) {  // one block each, the first count % n one longer
        if (trip > 0) return false;
        const std::uint64_t q = ws.count / n, rem = ws.count % n;
        out->begin = m.num * q + std::min<std::uint64_t>(m.num, rem);
        out->end = out->begin + q + (m.num < rem ? 1 : 0);
        return out->begin < out->end;
      }
      const std::uint64_t c = trip * n + m.num;  // round robin
      if (c >= (ws.count + ws.chunk - 1) / ws.chunk) return false;
      out->begin = c * ws.chunk;
      out->end = std::min(ws.count, out->begin + ws.chunk);
      return out->begin < out->end;
    }
    case Schedule::kDynamic:
    case Schedule::kGuided: {
      if (ws.next >= ws.count) return false;
      std::uint64_t size = std::max<std::uint64_t>(ws.chunk, 1);
      if (ws.schedule == Schedule::kGuided) size = std::max(size, (ws.count - ws.next + n - 1) / n);
      out->begin = ws.next;
      out->end = ws.count - ws.next < size ? ws.count : ws.next + size;
      ws.next = out->end;
      return true;
    }
  }
  return false;
}

}  // namespace weft::intercept::openmp
