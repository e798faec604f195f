#pragma once
// Mutexes (pthread_mutex_*, spin locks, std::mutex and friends through them).
#include <cerrno>
#include <cstdint>

#include "core/op.hpp"
#include "runtime/object_map.hpp"

namespace weft::rt {

class MutexModel {
 public:
  enum class Type : std::uint8_t { kNormal, kRecursive, kErrorCheck };

  void reset() { mutexes_.clear(); }
  // The type of `m` as its memory says at a use (pthread_mutex_init's attribute or a static
  // initializer). Known with another type, the memory held another mutex before (a block's
  // std::mutex, then a std::recursive_mutex in the same stack slot): a new one, unlocked.
  void learn(std::uintptr_t m, Type type) {
    State& s = mutexes_.at(m);
    if (s.type != type) s = State{kNoThread, 0, type};
  }
  // Forgets a mutex (re-initialised or destroyed): its type is learnt again on next use.
  void reset_one(std::uintptr_t m) { mutexes_.erase(m); }

  // May `t` acquire `m` now? (An errorcheck relock is "enabled": it fails with EDEADLK.)
  bool can_lock(std::uintptr_t m, ThreadId t) const {
    const State* s = mutexes_.find(m);
    if (s == nullptr || s->owner == kNoThread) return true;
    if (s->owner == t) return s->type != Type::kNormal;
    return false;
  }
  bool is_free(std::uintptr_t m) const {
    const State* s = mutexes_.find(m);
    return s == nullptr || s->owner == kNoThread;
  }
  ThreadId owner(std::uintptr_t m) const {
    const State* s = mutexes_.find(m);
    return s == nullptr ? kNoThread : s->owner;
  }
  // Acquires (the caller checked can_lock). Returns 0 or EDEADLK.
  int lock(std::uintptr_t m, ThreadId t) {
    State& s = mutexes_.at(m);
    if (s.owner == t) {
      if (s.type == Type::kErrorCheck) return EDEADLK;
      ++s.count;
      return 0;
    }
    s.owner = t;
    s.count = 1;
    return 0;
  }
  // Whether t's try-lock of m would fail now (try_lock's EBUSY), taking nothing.
  bool would_fail(std::uintptr_t m, ThreadId t) const {
    const State* s = mutexes_.find(m);
    if (s == nullptr || s->owner == kNoThread) return false;
    return s->owner != t || s->type != Type::kRecursive;
  }
  // 0 on success, EBUSY when held by another thread (or by t, non-recursive).
  int try_lock(std::uintptr_t m, ThreadId t) {
    State& s = mutexes_.at(m);
    if (s.owner == kNoThread || (s.owner == t && s.type == Type::kRecursive)) return lock(m, t);
    return EBUSY;
  }
  // 0, or EPERM when t does not hold it (reported for errorcheck/recursive mutexes).
  int unlock(std::uintptr_t m, ThreadId t) {
    State& s = mutexes_.at(m);
    if (s.owner != t) return EPERM;
    if (--s.count == 0) s.owner = kNoThread;
    return 0;
  }
  Type type(std::uintptr_t m) const {
    const State* s = mutexes_.find(m);
    return s == nullptr ? Type::kNormal : s->type;
  }
  // Releases completely (condition variable wait); returns the recursion count.
  unsigned release_all(std::uintptr_t m) {
    State& s = mutexes_.at(m);
    unsigned c = s.count;
    s.owner = kNoThread;
    s.count = 0;
    return c;
  }

 private:
  struct State {
    ThreadId owner = kNoThread;
    unsigned count = 0;
    Type type = Type::kNormal;
  };
  ObjectMap<State> mutexes_;
};

}  // namespace weft::rt
