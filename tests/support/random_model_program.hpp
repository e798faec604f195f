#pragma once
// Random model programs for the systematic strategies' brute-force tests (dpor, bf, vb):
// small enough for dfs to enumerate every schedule quickly.
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "support/model_program.hpp"

namespace weft::model {

// Threads of reads, writes, exchanges and locked sections over a few variables; with
// `blocking`, also semaphores and one-shot events (threads that wait); with `try_locks`,
// also try-locks and semaphore try-waits (that succeed, or fail: of a mutex the thread
// holds, of a semaphore it took the last of).
inline Program random_program(std::uint64_t seed, bool blocking, bool try_locks = false,
                              bool rwlocks = false) {
  Rng rng(seed);
  Program p;
  const std::size_t threads = 2 + rng.below(2);
  // Small enough for dfs to enumerate every schedule quickly.
  const std::size_t ops = try_locks || rwlocks ? (threads == 2 ? 2 + rng.below(2) : 1 + rng.below(2))
                        : threads == 2 ? 3 + rng.below(blocking ? 2 : 3)
                                       : 2 + rng.below(blocking ? 1 : 2);
  const std::size_t objects = 1 + rng.below(3);
  std::vector<ObjectId> obj;
  for (std::size_t o = 0; o < objects; ++o) obj.push_back(p.variable("v" + std::to_string(o)));
  const ObjectId m = p.mutex("m");
  const ObjectId m2 = p.mutex("m2");
  const ObjectId sem = p.semaphore("s", 1);
  const ObjectId ev = p.event("e");
  const ObjectId rw = p.rwlock("rw");
  for (std::size_t t = 0; t < threads; ++t) {
    ThreadBuilder b = p.thread("T" + std::to_string(t));
    for (std::size_t i = 0; i < ops; ++i) {
      const ObjectId o = obj[rng.below(objects)];
      const std::uint64_t kinds = try_locks || rwlocks ? 10 : blocking ? 8 : 6;
      std::uint64_t kind = rng.below(kinds);
      if (try_locks && kind >= 6) kind += 2;  // 8-11: the try kinds
      if (rwlocks && kind >= 6) kind += 6;    // 12-15: the rwlock kinds
      switch (kind) {
        case 0: case 1: b.read(o, i % kRegisters); break;
        case 2: case 3: b.write(o, static_cast<Value>(10 * t + i + 1)); break;
        case 4: b.exchange(o, static_cast<Value>(t + 1), 0); break;
        case 5: {
          const ObjectId which = rng.below(2) ? m : m2;
          b.lock(which).read(o, 1).unlock(which);
          break;
        }
        case 6: b.sem_wait(sem).write(o, 7).sem_post(sem); break;
        case 7: if (t == 0) b.signal(ev); else b.wait(ev); break;
        case 8: {  // try to take it; when taken, read under it and unlock
          const ObjectId which = rng.below(2) ? m : m2;
          b.try_lock(which, 2).read(o, 1).unlock_if(which, 2);
          break;
        }
        case 9: {  // the holder tries again (it fails), then unlocks
          const ObjectId which = rng.below(2) ? m : m2;
          b.lock(which).try_lock(which, 3).read(o, 1).unlock(which);
          break;
        }
        case 10:  // a semaphore of 1: try to take it; when taken, write under it and post
          b.sem_try_wait(sem, 4).write(o, 5).sem_post_if(sem, 4);
          break;
        case 11:  // take it, try again (it fails: the count is 0), post
          b.sem_wait(sem).sem_try_wait(sem, 5).read(o, 1).sem_post(sem);
          break;
        case 12: case 13: b.rdlock(rw).read(o, 1).rw_unlock(rw); break;
        case 14: case 15: b.wrlock(rw).write(o, static_cast<Value>(t + 20)).rw_unlock(rw); break;
      }
    }
  }
  p.deadlock_is_bug(false);
  return p;
}

}  // namespace weft::model
