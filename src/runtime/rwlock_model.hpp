#pragma once
// Reader-writer locks (pthread_rwlock_*, std::shared_mutex).
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include "core/op.hpp"
#include "runtime/object_map.hpp"

namespace weft::rt {

class RwLockModel {
 public:
  void reset() { locks_.clear(); }
  bool can_read(std::uintptr_t l) const {
    const State* s = locks_.find(l);
    return s == nullptr || s->writer == kNoThread;
  }
  bool can_write(std::uintptr_t l) const {
    const State* s = locks_.find(l);
    return s == nullptr || (s->writer == kNoThread && s->readers.empty());
  }
  void read_lock(std::uintptr_t l, ThreadId t) { locks_.at(l).readers.push_back(t); }
  void write_lock(std::uintptr_t l, ThreadId t) { locks_.at(l).writer = t; }
  void take(std::uintptr_t l, ThreadId t, bool write) {
    if (write)
      write_lock(l, t);
    else
      read_lock(l, t);
  }
  // 0, or EPERM when t holds it neither way.
  int unlock(std::uintptr_t l, ThreadId t) {
    State& s = locks_.at(l);
    if (s.writer == t) {
      s.writer = kNoThread;
      return 0;
    }
    auto it = std::find(s.readers.begin(), s.readers.end(), t);
    if (it == s.readers.end()) return EPERM;
    s.readers.erase(it);
    return 0;
  }
  ThreadId writer(std::uintptr_t l) const {
    const State* s = locks_.find(l);
    return s == nullptr ? kNoThread : s->writer;
  }
  std::vector<ThreadId> readers(std::uintptr_t l) const {
    const State* s = locks_.find(l);
    return s == nullptr ? std::vector<ThreadId>{} : s->readers;
  }
  // A write-reentrant annotated lock (__tsan_mutex_write_reentrant) taken again, or let go
  // once, by its writer: the model counts the levels above the first.
  void reenter(std::uintptr_t l) { ++locks_.at(l).reentered; }
  bool leave_reentered(std::uintptr_t l) {
    State* s = locks_.find(l);
    if (s == nullptr || s->reentered == 0) return false;
    --s->reentered;
    return true;
  }
  // Destroyed, or initialised again: a new lock.
  void reset_one(std::uintptr_t l) {
    if (locks_.find(l) != nullptr) locks_.erase(l);
  }

 private:
  struct State {
    ThreadId writer = kNoThread;
    std::vector<ThreadId> readers;
    std::uint32_t reentered = 0;
  };
  ObjectMap<State> locks_;
};

}  // namespace weft::rt
