#pragma once
// Waiters on an address: condition variables and futex words. Which waiter a signal wakes
// is data nondeterminism, chosen by the strategy (the caller passes the index).
#include <cstdint>
#include <vector>

#include "runtime/object_map.hpp"
#include "runtime/thread_state.hpp"

namespace weft::rt {

class WaitQueueModel {
 public:
  void reset() { queues_.clear(); }
  void add(std::uintptr_t obj, ThreadState* t) {
    t->woken = false;
    queues_.at(obj).push_back(t);
  }
  std::size_t waiters(std::uintptr_t obj) const {
    const auto* q = queues_.find(obj);
    return q == nullptr ? 0 : q->size();
  }
  // Wakes the waiter at `index` (< waiters(obj)).
  void wake_one(std::uintptr_t obj, std::size_t index) {
    auto& q = queues_.at(obj);
    q[index]->woken = true;
    q.erase(q.begin() + static_cast<std::ptrdiff_t>(index));
  }
  std::size_t wake_all(std::uintptr_t obj) {
    auto* q = queues_.find(obj);
    if (q == nullptr) return 0;
    for (ThreadState* t : *q) t->woken = true;
    std::size_t n = q->size();
    q->clear();
    return n;
  }
  // A waiter that timed out leaves the queue.
  void remove(std::uintptr_t obj, ThreadState* t) {
    auto* q = queues_.find(obj);
    if (q == nullptr) return;
    for (auto it = q->begin(); it != q->end(); ++it)
      if (*it == t) {
        q->erase(it);
        return;
      }
  }

 private:
  ObjectMap<std::vector<ThreadState*>> queues_;
};

}  // namespace weft::rt
