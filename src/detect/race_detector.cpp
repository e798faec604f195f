#include "detect/race_detector.hpp"

#include <algorithm>

namespace weft::detect {

RaceDetector::RaceDetector() { reset(); }

RaceDetector::~RaceDetector() = default;

void RaceDetector::reset() {
  threads_.clear();
  fences_.clear();
  relaxed_.clear();
  objects_.clear();
  rw_writers_.clear();
  thread_clock(0).set(0, 1);
  shadow_.reset();
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
    case OpKind::ThreadTryJoin:
      if (took) acquire(t, key(op.aux, kExit));
      break;
    case OpKind::MutexLock:
    case OpKind::MutexTryLock:
    case OpKind::SemWait:
    case OpKind::SemTryWait:
    case OpKind::OnceEnter:
    case OpKind::BarrierPass:  // every arrival of the generation is before it
    case OpKind::FutexWoken:
      if (took) acquire(t, obj);
      break;
    case OpKind::MutexUnlock:  // an unlock by a non-holder (failed) releases nothing
      if (took) release(t, obj);
      break;
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
    case OpKind::HbRelease:  // a reader's release orders it before later writers only
      release(t, key(op.object, op.aux == kAnnotatedReader ? kAnnotationReaders : kAnnotation));
      break;
    case OpKind::HbAcquire:
      acquire(t, key(op.object, kAnnotation));
      if (op.aux == kAnnotatedWriter) acquire(t, key(op.object, kAnnotationReaders));
      break;
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

bool RaceDetector::access(ThreadId t, std::uintptr_t address, std::size_t size, bool write,
                          std::uintptr_t pc, DataRace* race, bool atomic) {
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
  if (found)
    race->later =
        RaceAccess{t, pc, write, static_cast<std::uint16_t>(std::min<std::size_t>(size, 0xffff))};
  return found;
}

bool RaceDetector::access_word(ThreadId t, std::uintptr_t w, unsigned offset, unsigned size,
                               bool write, bool atomic, std::uintptr_t pc, DataRace* race) {
  Word& wd = shadow_.word(w);
  const VectorClock& c = thread_clock(t);
  const std::uint32_t epoch = c.get(t);
  bool raced = false;
  int replace = -1, empty = -1;
  for (int i = 0; i < ShadowMemory::kCells; ++i) {
    Cell& cell = wd.cells[i];
    if (cell.size == 0) {
      if (empty < 0) empty = i;
      continue;
    }
    const unsigned cell_offset = cell.offset, cell_size = cell.size;
    const bool same_range = cell_offset == offset && cell_size == size;
    if (cell.thread == t) {
      if (same_range && cell.atomic == atomic && (cell.write == write || write)) {
        // Nothing new since this thread's last such access: FastTrack's same-epoch case.
        // The cell names this access's code, though: a later race is with it too, and
        // each racing location must become a scheduling point (racy_points.hpp), not
        // only the first of an epoch (a constructor's write, then the program's own).
        if (cell.clock == epoch && cell.write == write && !raced) {
          if (cell.pc != pc) cell.pc = pc;
          return false;
        }
        replace = i;
      }
      continue;
    }
    const bool ordered = cell.clock <= c.get(cell.thread);
    const bool overlap = cell_offset < offset + size && offset < cell_offset + cell_size;
    if (!ordered && overlap && (write || cell.write) && !(atomic && cell.atomic)) {
      if (!raced && race != nullptr)
        race->earlier = RaceAccess{cell.thread, cell.pc, cell.write != 0,
                                   static_cast<std::uint16_t>(cell.size)};
      raced = true;
    } else if (ordered && replace < 0 && (write || !cell.write) && (!atomic || cell.atomic) &&
               cell_offset >= offset && cell_offset + cell_size <= offset + size) {
      // Ordered before this access and covered by it: whatever races with it later
      // races with this access too (FastTrack discards it likewise).
      replace = i;
    }
  }
  int slot = replace >= 0 ? replace : empty;
  if (slot < 0) slot = static_cast<int>((pc >> 2 ^ epoch) % ShadowMemory::kCells);
  wd.cells[slot] = Cell{epoch,
                        static_cast<std::uint16_t>(t),
                        static_cast<std::uint8_t>(offset),
                        static_cast<std::uint8_t>(size),
                        pc,
                        write,
                        atomic};
  return raced;
}

bool RaceDetector::freed(ThreadId t, std::uintptr_t address, std::size_t size, std::uintptr_t pc,
                         DataRace* race, bool mark) {
  if (size == 0) return false;
  const VectorClock& c = thread_clock(t);
  const std::uintptr_t end = address + size;
  bool raced = false;
  shadow_.visit(address, size, [&](const Word& wd, std::uintptr_t w) {
    if (raced) return;
    for (const Cell& cell : wd.cells) {
      if (cell.size == 0 || cell.thread == t || cell.clock <= c.get(cell.thread)) continue;
      if (!(w + cell.offset < end && address < w + cell.offset + cell.size)) continue;
      race->address = w + cell.offset;
      race->earlier =
          RaceAccess{cell.thread, cell.pc, cell.write != 0, static_cast<std::uint16_t>(cell.size)};
      race->later =
          RaceAccess{t, pc, true, static_cast<std::uint16_t>(std::min<std::size_t>(size, 0xffff))};
      raced = true;
      return;
    }
  });
  if (!mark) {
    forget(address, size);
    return raced;
  }
  // Every cell of the word goes (the block's history), the marker takes the first: a
  // write of the whole word by a thread no clock knows.
  for (std::uintptr_t w = address & ~std::uintptr_t{7}; w < end; w += 8) {
    Word& wd = shadow_.word(w);
    wd = Word{};
    wd.cells[0] = Cell{1, ShadowMemory::kFreedThread, 0, 8, pc, 1, 0};
  }
  return raced;
}

void RaceDetector::forget(std::uintptr_t address, std::size_t size) {
  if (size == 0) return;
  const std::uintptr_t end = address + size;
  shadow_.forget(address, size, [&](Word& wd, std::uintptr_t w) {
    for (Cell& cell : wd.cells)
      if (cell.size != 0 && w + cell.offset < end && address < w + cell.offset + cell.size)
        cell = Cell{};
  });
}

}  // namespace weft::detect
