#include "detect/race_detector.hpp"

#include <sys/mman.h>

#include <algorithm>

namespace weft::detect {
namespace {

constexpr std::size_t kInitialWords = 4096;
// The most words tracked in one execution (72 bytes each: 600 MB). Words beyond are not
// tracked: races on them may be missed, none is invented.
constexpr std::size_t kMaxWords = std::size_t{1} << 23;

// Fibonacci hashing (the top bits of the product) of the word's 64-byte block, and the
// word's place in its block: neighbouring words get neighbouring slots, so a loop over an
// array walks the table in order instead of missing the cache at every access.
std::size_t hash(std::uintptr_t w, std::size_t capacity) {
  const int bits = __builtin_ctzll(capacity);
  const std::size_t block = static_cast<std::size_t>(((w >> 6) * 0x9E3779B97F4A7C15ull) >> (64 - bits));
  return (block * 8 + ((w >> 3) & 7)) & (capacity - 1);
}

// Zeroed pages straight from the kernel, given back whole at the end of an execution.
template <typename T>
T* map_zeroed(std::size_t n) {
  void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<T*>(p);
}

}  // namespace

RaceDetector::RaceDetector() { reset(); }

RaceDetector::~RaceDetector() {
  if (table_ != nullptr) munmap(table_, capacity_ * sizeof(Word));
}

void RaceDetector::reset() {
  threads_.clear();
  fences_.clear();
  relaxed_.clear();
  objects_.clear();
  rw_writers_.clear();
  thread_clock(0).set(0, 1);
  if (table_ != nullptr && occupied_.empty()) return;
  if (table_ != nullptr && capacity_ == kInitialWords) {
    // Small: the words used are cleared in place. Touching only them matters in a fork
    // server's child, where every page of the table written is a page fault and a copy.
    for (std::uint32_t i : occupied_) table_[i] = Word{};
    occupied_.clear();
    return;
  }
  if (table_ != nullptr) munmap(table_, capacity_ * sizeof(Word));  // big: given back
  capacity_ = kInitialWords;
  occupied_.clear();
  table_ = map_zeroed<Word>(capacity_);
}

VectorClock& RaceDetector::add_thread(ThreadId t) {
  threads_.resize(t + 1);
  fences_.resize(t + 1);
  relaxed_.resize(t + 1);
  return threads_[t];
}

const VectorClock& RaceDetector::clock(ThreadId t) { return thread_clock(t); }

void RaceDetector::acquire(ThreadId t, std::uint64_t k) {
  auto it = objects_.find(k);
  if (it != objects_.end()) thread_clock(t).join(it->second);
}

void RaceDetector::release(ThreadId t, std::uint64_t k) {
  VectorClock& c = thread_clock(t);
  objects_[k].join(c);
  c.tick(t);
}

void RaceDetector::step(const Event& e, std::uintptr_t wait_mutex) {
  const ThreadId t = e.thread;
  const Op& op = e.op;
  const bool took = (e.flags & (kFailed | kTimedOut)) == 0;  // a try or timed wait succeeded
  const std::uint64_t obj = key(op.object, kObject);
  switch (op.kind) {
    case OpKind::ThreadCreate: {
      const ThreadId child = op.aux;
      thread_clock(child);  // may grow the table: copy after
      threads_[child] = threads_[t];
      threads_[child].set(child, 1);
      threads_[t].tick(t);
      break;
    }
    case OpKind::ThreadExit: release(t, key(t, kExit)); break;
    case OpKind::ThreadJoin: acquire(t, key(op.aux, kExit)); break;
    case OpKind::MutexLock:
    case OpKind::MutexTryLock:
    case OpKind::SemWait:
    case OpKind::SemTryWait:
    case OpKind::OnceEnter:
    case OpKind::BarrierPass:  // every arrival of the generation is before it
    case OpKind::FutexWoken:
      if (took) acquire(t, obj);
      break;
    case OpKind::MutexUnlock:
    case OpKind::SemPost:
    case OpKind::OnceDone:
    case OpKind::FutexWake:
    case OpKind::CondSignal:
    case OpKind::CondBroadcast: release(t, obj); break;
    case OpKind::BarrierWait:
      // The last to arrive takes no BarrierPass step: arriving acquires the earlier
      // arrivals too.
      release(t, obj);
      acquire(t, obj);
      break;
    case OpKind::RwReadLock:
    case OpKind::RwTryReadLock:
      if (took) acquire(t, obj);
      break;
    case OpKind::RwWriteLock:
    case OpKind::RwTryWriteLock:
      if (took) {
        acquire(t, obj);
        acquire(t, key(op.object, kReaders));
        rw_writers_[op.object] = t;
      }
      break;
    case OpKind::RwUnlock: {
      // A writer's unlock orders it before every later locker; a reader's only before
      // later writers (readers do not synchronise with each other).
      auto it = rw_writers_.find(op.object);
      if (it != rw_writers_.end() && it->second == t) {
        rw_writers_.erase(it);
        release(t, obj);
      } else {
        release(t, key(op.object, kReaders));
      }
      break;
    }
    case OpKind::CondWait: release(t, key(wait_mutex, kObject)); break;
    case OpKind::CondWake:
      if (took) acquire(t, obj);  // woken by a signal: after it
      acquire(t, key(wait_mutex, kObject));
      break;
    default: break;
  }
}

bool RaceDetector::atomic(ThreadId t, const Op& op, DataRace* race) {
  VectorClock& c = thread_clock(t);
  const bool acq = op.acquires(), rel = op.releases();
  if (op.kind == OpKind::Fence) {
    if (acq) c.join(relaxed_[t]);
    if (rel) {
      fences_[t] = c;
      c.tick(t);
    }
    return false;
  }
  // Against plain accesses of the same bytes, before its own synchronisation.
  const bool raced = op.size > 0 && access(t, op.object, op.size, op.kind != OpKind::AtomicLoad,
                                           op.pc, race, /*atomic=*/true);
  const std::uint64_t k = key(op.object, kObject);
  if (op.kind != OpKind::AtomicStore) {  // it reads
    auto it = objects_.find(k);
    if (it != objects_.end()) (acq ? c : relaxed_[t]).join(it->second);
  }
  if (op.kind == OpKind::AtomicLoad) return raced;
  VectorClock& sync = objects_[k];
  if (op.kind == OpKind::AtomicStore) {
    // A store starts a new release sequence: only what it releases is published.
    if (rel)
      sync = c;
    else if (!fences_[t].empty())
      sync = fences_[t];
    else
      sync.clear();
  } else {
    // A read-modify-write continues the release sequence it read from.
    if (rel)
      sync.join(c);
    else if (!fences_[t].empty())
      sync.join(fences_[t]);
  }
  if (rel) c.tick(t);
  return raced;
}

RaceDetector::Word* RaceDetector::find(std::uintptr_t w) {
  if (table_ == nullptr) return nullptr;
  const std::uintptr_t k = w | 1;
  for (std::size_t i = hash(w, capacity_);; i = (i + 1) & (capacity_ - 1)) {
    if (table_[i].key == k) return &table_[i];
    if (table_[i].key == 0) return nullptr;
  }
}

RaceDetector::Word& RaceDetector::word(std::uintptr_t w) {
  const std::uintptr_t k = w | 1;
  for (std::size_t i = hash(w, capacity_);; i = (i + 1) & (capacity_ - 1)) {
    Word& slot = table_[i];
    if (slot.key == k) return slot;
    if (slot.key == 0) {
      if (2 * (occupied_.size() + 1) > capacity_) {
        if (capacity_ < kMaxWords && grow()) return word(w);
        scratch_ = Word{};  // full: an untracked word, with no history
        return scratch_;
      }
      slot.key = k;
      occupied_.push_back(static_cast<std::uint32_t>(i));
      return slot;
    }
  }
}

bool RaceDetector::grow() {
  Word* bigger = map_zeroed<Word>(2 * capacity_);
  if (bigger == nullptr) return false;
  Word* old = table_;
  const std::size_t old_capacity = capacity_;
  capacity_ *= 2;
  table_ = bigger;
  for (std::uint32_t& i : occupied_) {
    const Word& from = old[i];
    std::size_t j = hash(from.key & ~std::uintptr_t{1}, capacity_);
    while (table_[j].key != 0) j = (j + 1) & (capacity_ - 1);
    table_[j] = from;
    i = static_cast<std::uint32_t>(j);
  }
  munmap(old, old_capacity * sizeof(Word));
  return true;
}

bool RaceDetector::access(ThreadId t, std::uintptr_t address, std::size_t size, bool write,
                          std::uintptr_t pc, DataRace* race, bool atomic) {
  if (table_ == nullptr) return false;  // out of memory: detection off
  bool found = false;
  for (std::uintptr_t a = address, end = address + size; a < end;) {
    const std::uintptr_t w = a & ~std::uintptr_t{7};
    const unsigned offset = static_cast<unsigned>(a - w);
    const unsigned n = static_cast<unsigned>(std::min<std::uintptr_t>(end - a, 8 - offset));
    if (access_word(t, w, offset, n, write, atomic, pc, found ? nullptr : race)) {
      if (!found) race->address = address;
      found = true;
    }
    a += n;
  }
  if (found) race->later = RaceAccess{t, pc, write, static_cast<std::uint16_t>(std::min<std::size_t>(size, 0xffff))};
  return found;
}

bool RaceDetector::access_word(ThreadId t, std::uintptr_t w, unsigned offset, unsigned size,
                               bool write, bool atomic, std::uintptr_t pc, DataRace* race) {
  Word& wd = word(w);
  const VectorClock& c = thread_clock(t);
  const std::uint32_t epoch = c.get(t);
  bool raced = false;
  int replace = -1, empty = -1;
  for (int i = 0; i < kCells; ++i) {
    Cell& cell = wd.cells[i];
    if (cell.size == 0) {
      if (empty < 0) empty = i;
      continue;
    }
    const bool same_range = cell.offset == offset && cell.size == size;
    if (cell.thread == t) {
      if (same_range && cell.atomic == atomic && (cell.write == write || write)) {
        // Nothing new since this thread's last such access: FastTrack's same-epoch case.
        if (cell.clock == epoch && cell.write == write && !raced) return false;
        replace = i;
      }
      continue;
    }
    const bool ordered = cell.clock <= c.get(cell.thread);
    const bool overlap = cell.offset < offset + size && offset < cell.offset + cell.size;
    if (!ordered && overlap && (write || cell.write) && !(atomic && cell.atomic)) {
      if (!raced && race != nullptr)
        race->earlier = RaceAccess{cell.thread, cell.pc, cell.write, cell.size};
      raced = true;
    } else if (ordered && replace < 0 && (write || !cell.write) && (!atomic || cell.atomic) &&
               cell.offset >= offset &&
               cell.offset + cell.size <= offset + size) {
      // Ordered before this access and covered by it: whatever races with it later
      // races with this access too (FastTrack discards it likewise).
      replace = i;
    }
  }
  int slot = replace >= 0 ? replace : empty;
  if (slot < 0) slot = static_cast<int>((pc >> 2 ^ epoch) % kCells);
  wd.cells[slot] = Cell{pc,
                        epoch,
                        static_cast<std::uint16_t>(t),
                        static_cast<std::uint8_t>(offset),
                        static_cast<std::uint8_t>(size),
                        write,
                        atomic};
  return raced;
}

void RaceDetector::forget(std::uintptr_t address, std::size_t size) {
  if (table_ == nullptr || size == 0 || occupied_.empty()) return;
  const std::uintptr_t first = address & ~std::uintptr_t{7}, end = address + size;
  auto clear = [&](Word& wd) {
    const std::uintptr_t w = wd.key & ~std::uintptr_t{1};
    for (Cell& cell : wd.cells)
      if (cell.size != 0 && w + cell.offset < end && address < w + cell.offset + cell.size)
        cell = Cell{};
  };
  if ((end - first) / 8 > occupied_.size()) {  // a big block (a thread's stack): walk the words used
    for (std::uint32_t i : occupied_) {
      const std::uintptr_t w = table_[i].key & ~std::uintptr_t{1};
      if (w + 8 > address && w < end) clear(table_[i]);
    }
    return;
  }
  for (std::uintptr_t w = first; w < end; w += 8)
    if (Word* wd = find(w)) clear(*wd);
}

}  // namespace weft::detect
