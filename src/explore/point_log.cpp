#include "explore/point_log.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "sys/os.hpp"

namespace weft::explorer {

struct PointLog::Header {
  std::size_t used;
};

namespace {

struct Record {
  std::uint32_t kind;  // Decision::Kind
  std::uint32_t n;     // enabled threads, or the number of values
  std::uint64_t step;
  std::uint64_t thread_count;
  std::uint32_t current;
  std::uint32_t flags;  // kPointCurrentEnabled, kPointRegions, kPointInRegion
};
constexpr std::uint32_t kPointCurrentEnabled = 1, kPointRegions = 2, kPointInRegion = 4;

constexpr std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

std::size_t record_size(const Record& r) {
  if (r.kind != Decision::kThread) return sizeof(Record);
  return sizeof(Record) + align8(r.n * sizeof(ThreadId)) + r.n * sizeof(Op);
}

}  // namespace

std::size_t PointLog::least(std::uint64_t steps) {
  constexpr std::size_t kThreads = 8;
  constexpr std::size_t kPoint =
      sizeof(Record) + align8(kThreads * sizeof(ThreadId)) + kThreads * sizeof(Op);
  const auto points = static_cast<std::size_t>(std::min<std::uint64_t>(steps + 2, 1ull << 32));
  return align8(sizeof(Header)) + points * kPoint;
}

PointLog::PointLog(std::size_t want, std::uint64_t steps) {
  // Under an address-space limit, a quarter of it at most: the program's threads need
  // theirs (stacks, malloc's arenas).
  if (const std::size_t limit = os::address_space_limit(); limit != 0)
    want = std::max(std::min(want, limit / 4), least(steps));
  if (void* p = os::reserve_address_space(want, least(steps), MAP_SHARED, &capacity_)) {
    base_ = static_cast<char*>(p);
    clear();
  }
}

PointLog::~PointLog() {
  if (base_ != nullptr) munmap(base_, capacity_);
}

PointLog::Header* PointLog::header() const { return reinterpret_cast<Header*>(base_); }

void PointLog::clear() { header()->used = align8(sizeof(Header)); }

bool PointLog::append(const SchedulingPoint& p) {
  Record r{Decision::kThread,
           static_cast<std::uint32_t>(p.enabled.size()),
           p.step,
           p.thread_count,
           p.current,
           (p.current_enabled ? kPointCurrentEnabled : 0u) | (p.regions ? kPointRegions : 0u) |
               (p.in_region ? kPointInRegion : 0u)};
  const std::size_t size = record_size(r);
  Header* h = header();
  if (h->used + size > capacity_) return false;
  char* at = base_ + h->used;
  std::memcpy(at, &r, sizeof r);
  std::memcpy(at + sizeof r, p.enabled.data(), r.n * sizeof(ThreadId));
  std::memcpy(at + sizeof r + align8(r.n * sizeof(ThreadId)), p.next_ops.data(), r.n * sizeof(Op));
  h->used += size;
  return true;
}

bool PointLog::append_value(std::size_t n) {
  Record r{Decision::kValue, static_cast<std::uint32_t>(n), 0, 0, 0, 0};
  Header* h = header();
  if (h->used + sizeof r > capacity_) return false;
  std::memcpy(base_ + h->used, &r, sizeof r);
  h->used += sizeof r;
  return true;
}

std::string PointLog::feed(Strategy& strategy, const Decision* decisions,
                           std::size_t ndecisions) const {
  std::vector<ThreadId> enabled;
  std::vector<Op> ops;
  std::size_t offset = align8(sizeof(Header)), i = 0;
  const std::size_t end = header()->used;
  for (; offset < end; ++i) {
    Record r;
    std::memcpy(&r, base_ + offset, sizeof r);
    if (i >= ndecisions) break;  // the child died between its choice and its record
    std::uint32_t answer;
    if (r.kind == Decision::kThread) {
      enabled.resize(r.n);
      ops.resize(r.n);
      std::memcpy(enabled.data(), base_ + offset + sizeof r, r.n * sizeof(ThreadId));
      std::memcpy(ops.data(), base_ + offset + sizeof r + align8(r.n * sizeof(ThreadId)),
                  r.n * sizeof(Op));
      SchedulingPoint p;
      p.step = r.step;
      p.current = r.current;
      p.current_enabled = (r.flags & kPointCurrentEnabled) != 0;
      p.regions = (r.flags & kPointRegions) != 0;
      p.in_region = (r.flags & kPointInRegion) != 0;
      p.enabled = enabled;
      p.next_ops = ops;
      p.thread_count = r.thread_count;
      answer = strategy.choose(p);
    } else {
      answer = static_cast<std::uint32_t>(strategy.choose_value(r.n));
    }
    if (decisions[i].kind != r.kind || decisions[i].value != answer)
      return "the strategy chose differently in the server than in the execution at decision " +
             std::to_string(i) + ": the strategy is not deterministic";
    offset += record_size(r);
  }
  return "";
}

}  // namespace weft::explorer
