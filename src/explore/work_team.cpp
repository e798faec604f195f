#include "explore/work_team.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

#include "core/jobs_layout.hpp"
#include "core/team_plan.hpp"
#include "explore/stop_request.hpp"
#include "sys/os.hpp"

namespace weft::explorer {

namespace {

using F = JobsLayout::SlotField;
using L = JobsLayout;

}  // namespace

WorkTeam::WorkTeam(const std::string& path, std::uint32_t worker, std::uint32_t workers)
    : worker_(worker), workers_(workers), length_(TeamPlan::kShortRound) {
  if (path.empty() || workers < 2 || worker >= workers || workers > JobsLayout::kMaxWorkers) return;
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  const std::size_t bytes = JobsLayout::file_bytes(workers);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  struct stat st;
  const bool sized = fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) >= bytes;
  close(fd);
  if (p == MAP_FAILED) return;
  if (!sized) {
    munmap(p, bytes);
    return;
  }
  map_ = p;
  bytes_ = bytes;
  words_ = reinterpret_cast<std::atomic<std::uint64_t>*>(static_cast<char*>(p) +
                                                         JobsLayout::kTeamOffset);
}

WorkTeam::~WorkTeam() {
  leave();
  if (map_ != nullptr) munmap(map_, bytes_);
}

std::atomic<std::uint64_t>& WorkTeam::slot(std::uint32_t worker, std::size_t field) const {
  return words_[JobsLayout::slot(worker) + field];
}

bool WorkTeam::arrive(std::uint64_t deadline_ns) {
  std::atomic<std::uint64_t>& bar = word(JobsLayout::kBarrier);
  std::uint32_t* generation = L::generation_word(bar);
  std::uint64_t w = bar.load();
  std::uint64_t next;
  bool last;
  do {
    last = L::arrived(w) + 1 >= L::live(w);
    next = last ? L::barrier(0, L::live(w), L::generation(w) + 1ull) : w + 1;
  } while (!bar.compare_exchange_weak(w, next));
  if (last) {
    os::futex_wake_shared(generation, INT_MAX);
    return true;
  }
  const std::uint32_t gen = L::generation(w);
  while (L::generation(bar.load()) == gen) {
    const bool out_of_time = deadline_ns != 0 && os::monotonic_ns() >= deadline_ns;
    // Interrupted (explore/stop_request.hpp): this worker leaves; the others, told too,
    // leave at their next check.
    if (out_of_time || StopRequest::made() || word(JobsLayout::kAbort).load() != 0) {
      depart(true, gen);
      return false;
    }
    os::futex_wait_shared(generation, gen, 20'000'000);
  }
  return true;
}

// Leaves the barrier's count of live workers (and of those arrived, when this worker is
// one of generation `gen`'s): the phase completes without it if all others are there.
void WorkTeam::depart(bool arrived, std::uint32_t gen) {
  left_ = true;
  slot(worker_, F::kDeparted).store(1);
  std::atomic<std::uint64_t>& bar = word(JobsLayout::kBarrier);
  std::uint64_t w = bar.load();
  std::uint64_t next;
  bool completes;
  do {
    std::uint64_t a = L::arrived(w);
    const std::uint64_t live = L::live(w) - (L::live(w) != 0);
    if (arrived && L::generation(w) == gen && a != 0) --a;
    completes = live != 0 && a != 0 && a >= live;
    next = completes ? L::barrier(0, live, L::generation(w) + 1ull)
                     : L::barrier(a, live, L::generation(w));
  } while (!bar.compare_exchange_weak(w, next));
  if (completes) os::futex_wake_shared(L::generation_word(bar), INT_MAX);
}

void WorkTeam::learn_racy(const std::vector<TeamMember>& members, RacyNews* news) const {
  news->all.clear();
  news->held = false;
  news->shared = true;
  news->first = members.empty() ? worker_ : members.front().worker;
  std::vector<std::vector<std::uint64_t>> sets;
  for (const TeamMember& m : members) {
    const std::atomic<std::uint64_t>* box = words_ + JobsLayout::racy_box(workers_, m.worker);
    const std::uint64_t published = box[0].load(std::memory_order_relaxed);
    // More than a box holds: the spaces cannot be compared here (each worker goes on with
    // its own; the merged result then claims nothing), and must not hold the team back.
    if (published > JobsLayout::kRacyWords - 1) {
      news->all.clear();
      news->shared = true;
      return;
    }
    const std::uint64_t n = published;
    std::vector<std::uint64_t>& set = sets.emplace_back();
    for (std::uint64_t i = 0; i < n; ++i) set.push_back(box[1 + i].load(std::memory_order_relaxed));
    news->all.insert(news->all.end(), set.begin(), set.end());
  }
  std::sort(news->all.begin(), news->all.end());
  news->all.erase(std::unique(news->all.begin(), news->all.end()), news->all.end());
  for (const std::vector<std::uint64_t>& set : sets) {
    news->held |= set == news->all;
    news->shared &= set == news->all;
  }
}

void WorkTeam::leave() {
  if (words_ == nullptr || left_) return;
  depart(false, 0);
}

WorkTeam::Outcome WorkTeam::exchange(Distribution& search, std::uint64_t space,
                                     std::uint64_t deadline_ns,
                                     const std::vector<std::uintptr_t>& racy, RacyNews* news) {
  if (!active()) return Outcome::kGoOn;
  ++round_;
  // 1. Publish: the work left, the branches found for other workers' nodes.
  search.take_forwards(&carry_);
  std::size_t fit = 0;  // whole records only
  while (fit < carry_.size() && carry_[fit] != 0 && fit + carry_[fit] <= JobsLayout::kOutboxWords &&
         fit + carry_[fit] <= carry_.size())
    fit += carry_[fit];
  // A record no outbox could hold (none is written so long) would block the rest forever.
  if (fit == 0 && !carry_.empty())
    carry_.erase(carry_.begin(), carry_[0] == 0 || carry_[0] > carry_.size()
                                     ? carry_.end()
                                     : carry_.begin() + static_cast<std::ptrdiff_t>(carry_[0]));
  std::atomic<std::uint64_t>* out = words_ + JobsLayout::outbox(workers_, worker_);
  for (std::size_t i = 0; i < fit; ++i) out[i].store(carry_[i], std::memory_order_relaxed);
  carry_.erase(carry_.begin(), carry_.begin() + static_cast<std::ptrdiff_t>(fit));
  slot(worker_, F::kWork).store(search.work_left());
  slot(worker_, F::kForwards).store(fit);
  slot(worker_, F::kPending).store(carry_.size());
  slot(worker_, F::kSpace).store(space);
  slot(worker_, F::kRound).store(round_);
  std::atomic<std::uint64_t>* mine = words_ + JobsLayout::racy_box(workers_, worker_);
  const std::size_t nracy = std::min(racy.size(), JobsLayout::kRacyWords - 1);
  for (std::size_t i = 0; i < nracy; ++i) mine[1 + i].store(racy[i], std::memory_order_relaxed);
  mine[0].store(racy.size(), std::memory_order_relaxed);  // more than it holds: see learn_racy
  if (!arrive(deadline_ns)) return Outcome::kLeft;

  // 2. The plan, the same on every worker: it reads only what was published above.
  std::vector<TeamMember> members;
  bool done = true;
  for (std::uint32_t j = 0; j < workers_; ++j) {
    if (slot(j, F::kRound).load() != round_) continue;  // left the team before this exchange
    const TeamMember m{j, slot(j, F::kWork).load(), slot(j, F::kSpace).load()};
    done &= m.work == 0 && slot(j, F::kForwards).load() == 0 && slot(j, F::kPending).load() == 0;
    members.push_back(m);
  }
  // Workers that learn racy locations here start over on the larger space: not done yet.
  if (news != nullptr) {
    learn_racy(members, news);
    done &= news->shared;
  }
  if (done) return Outcome::kDone;
  const TeamPlan plan = plan_team(members, length_);
  for (const TeamTransfer& t : plan.transfers) {
    if (t.giver != worker_) continue;
    buffer_.clear();
    search.give_work(t.count, JobsLayout::kInboxWords, &buffer_);
    std::atomic<std::uint64_t>* in = words_ + JobsLayout::inbox(workers_, t.taker);
    for (std::size_t i = 0; i < buffer_.size(); ++i)
      in[i].store(buffer_[i], std::memory_order_relaxed);
    slot(t.taker, F::kInboxSize).store(buffer_.size());
    slot(t.taker, F::kInboxRound).store(round_);
  }
  if (!arrive(deadline_ns)) return Outcome::kLeft;

  // 3. Take the work given, and the branches forwarded here (in the workers' order).
  if (slot(worker_, F::kInboxRound).load() == round_) {
    const std::atomic<std::uint64_t>* in = words_ + JobsLayout::inbox(workers_, worker_);
    buffer_.resize(
        std::min<std::uint64_t>(slot(worker_, F::kInboxSize).load(), JobsLayout::kInboxWords));
    for (std::size_t i = 0; i < buffer_.size(); ++i)
      buffer_[i] = in[i].load(std::memory_order_relaxed);
    search.take_work(buffer_);
  }
  for (const TeamMember& m : members) {
    const std::atomic<std::uint64_t>* box = words_ + JobsLayout::outbox(workers_, m.worker);
    const std::uint64_t n =
        std::min<std::uint64_t>(slot(m.worker, F::kForwards).load(), JobsLayout::kOutboxWords);
    for (std::uint64_t i = 0; i + 2 <= n;) {
      const std::uint64_t len = box[i].load(std::memory_order_relaxed);
      if (len < 2 || i + len > n) break;
      const std::uint64_t to = box[i + 1].load(std::memory_order_relaxed);
      if (to == worker_ || (to == Distribution::kEveryWorker && m.worker != worker_)) {
        buffer_.resize(len);
        for (std::uint64_t k = 0; k < len; ++k)
          buffer_[k] = box[i + k].load(std::memory_order_relaxed);
        search.accept_forward(buffer_);
      }
      i += len;
    }
  }
  // The boxes are read: they may be written again after this.
  if (!arrive(deadline_ns)) return Outcome::kLeft;
  slot_base_ += length_;
  length_ = plan.next_length;
  return Outcome::kGoOn;
}

}  // namespace weft::explorer
