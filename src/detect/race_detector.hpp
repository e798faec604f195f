#pragma once
// Happens-before data race detection over one execution (FastTrack, Flanagan and Freund,
// PLDI'09): a vector clock per thread and per synchronisation object, and for every
// 8-byte word of memory the last accesses to it as epochs (thread, clock). An access races
// with a recorded one of another thread when their bytes overlap, one of them writes, and
// the recorded epoch is not in the accessing thread's clock.
//
// Shadow cells (detect/shadow_memory.hpp) are finer than the word: each holds the offset
// and size of its access, so that two threads writing neighbouring fields of one word do
// not race. Like ThreadSanitizer, a word keeps a few cells; when all are taken by
// unordered accesses of other ranges, one is evicted, which may miss a race but never
// invents one.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "core/run_record.hpp"
#include "core/vector_clock.hpp"
#include "detect/shadow_memory.hpp"

namespace weft::detect {

class RaceDetector {
 public:
  RaceDetector();
  ~RaceDetector();
  RaceDetector(const RaceDetector&) = delete;
  RaceDetector& operator=(const RaceDetector&) = delete;

  // Whether its shadow memory could be reserved (an address-space limit may refuse it).
  bool ok() const { return shadow_.ok(); }
  // The shadow as made, and the ranges it reserved (shadow_memory.hpp).
  void clear_shadow() { shadow_.clear_all(); }
  std::array<ShadowMemory::Range, 4> shadow_ranges() const { return shadow_.ranges(); }

  // A new execution: thread 0 alone, no clocks, no shadow memory (all memory released).
  void reset();

  // A completed step that synchronises (thread create/join/exit, locks, condition
  // variables, semaphores, barriers, once, futex). Memory accesses and fences are not
  // steps here: they come through access() and atomic() whether or not they were
  // scheduling points. `wait_mutex` is the mutex a condition variable wait releases and
  // reacquires (the step names the condition variable).
  void step(const Event& e, std::uintptr_t wait_mutex);

  // An atomic operation or fence, performed by `t`, with its memory order as op.flags'
  // acquire/release bits (std::memory_order_relaxed has neither). An atomic access never
  // races with another atomic one, but does with a plain access of the same bytes: true
  // and *race filled then.
  bool atomic(ThreadId t, const Op& op, DataRace* race);

  // A plain access of `size` bytes. Returns true and fills *race when it races with an
  // earlier access; the access is recorded either way.
  bool access(ThreadId t, std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc,
              DataRace* race, bool atomic = false);

  // Memory returned to the allocator: what was recorded there is forgotten, so that a new
  // object at the same address does not race with the old one.
  void forget(std::uintptr_t address, std::size_t size);
  // `t` frees [address, address + size) at `pc`: a write of all of it, which races with
  // any access there that `t` has not synchronised with (true, *race filled); then, as
  // forget(), the block's history goes. Costs a look at the words that hold history.
  // With `mark` (the block is held in a quarantine, not reused), each of its words is left
  // holding a freed marker instead (8-aligned blocks, as malloc's are): any later access
  // or free there "races" with it, with race->earlier.thread == kFreedThread, until
  // forget() clears it.
  bool freed(ThreadId t, std::uintptr_t address, std::size_t size, std::uintptr_t pc,
             DataRace* race, bool mark = false);
  // Whether the word holding `address` is marked freed.
  bool is_freed(std::uintptr_t address) {
    const Word* wd = shadow_.find(address & ~std::uintptr_t{7});
    return wd != nullptr && wd->cells[0].size != 0 && wd->cells[0].thread == kFreedThread;
  }
  static constexpr ThreadId kFreedThread = ShadowMemory::kFreedThread;

  // Clock of `t` (tests).
  const VectorClock& clock(ThreadId t);

 private:
  using Word = ShadowMemory::Word;
  using Cell = ShadowMemory::Cell;
  // Sync objects' clocks are keyed by address and a slot (an rwlock has two clocks).
  // kAnnotation(Readers): TSan's annotations on an address, apart from the object there
  // (a relaxed store to a flag must not clear what AnnotateHappensBefore on it released).
  enum Slot : std::uint64_t {
    kObject = 0,
    kReaders = 1,
    kExit = 2,
    kAnnotation = 3,
    kAnnotationReaders = 4
  };

  VectorClock& thread_clock(ThreadId t) {
    return t < threads_.size() ? threads_[t] : add_thread(t);
  }
  VectorClock& add_thread(ThreadId t);
  void acquire(ThreadId t, std::uint64_t key);
  void release(ThreadId t, std::uint64_t key);
  static std::uint64_t key(std::uintptr_t object, Slot slot) { return object * 8 + slot; }
  bool access_word(ThreadId t, std::uintptr_t w, unsigned offset, unsigned size, bool write,
                   bool atomic, std::uintptr_t pc, DataRace* race);

  std::vector<VectorClock> threads_;
  std::vector<VectorClock> fences_;   // clock at each thread's last release fence
  std::vector<VectorClock> relaxed_;  // what relaxed loads read, for an acquire fence
  std::unordered_map<std::uint64_t, VectorClock> objects_;
  std::unordered_map<std::uintptr_t, ThreadId> rw_writers_;  // rwlocks held for writing
  ShadowMemory shadow_;
};

}  // namespace weft::detect
