#pragma once
// The ICB paper's benchmark (Musuvathi and Qadeer, PLDI'07, section 1 and Figure 1): a
// work-stealing queue on a bounded circular buffer, used by its owner (push and pop at the
// bottom) and a stealing thread (steal at the top), with three buggy variants that each
// break one bound or one ordering. Shared by its test and `make bench`.
#include <atomic>
#include <thread>
#include <weft/weft.hpp>

namespace wsq {

enum class Variant {
  kCorrect,
  kPopTakesLastWithoutCas,   // pop's bound off by one: t <= b instead of t < b
  kPopReadsTopTooEarly,      // pop reads top before it publishes the new bottom
  kStealFromEmpty,           // steal's emptiness bound off by one: t > b instead of t >= b
};

constexpr int kCapacity = 4;
constexpr int kTasks = 2;
constexpr int kNone = -1;

template <Variant V>
class Queue {
 public:
  void push(int task) {
    const long b = bottom_.load();
    slots_[b % kCapacity].store(task);
    bottom_.store(b + 1);
  }
  int pop() {
    long b, t;
    if constexpr (V == Variant::kPopReadsTopTooEarly) {
      t = top_.load();
      b = bottom_.load() - 1;
      bottom_.store(b);
    } else {
      b = bottom_.load() - 1;
      bottom_.store(b);  // publish first, then look: a thief now sees the smaller bottom
      t = top_.load();
    }
    if (t > b) {
      bottom_.store(b + 1);
      return kNone;
    }
    const int task = slots_[b % kCapacity].load();
    if (V == Variant::kPopTakesLastWithoutCas ? t <= b : t < b) return task;
    // The last task: whoever moves top past it owns it.
    const bool won = top_.compare_exchange_strong(t, t + 1);
    bottom_.store(b + 1);
    return won ? task : kNone;
  }
  int steal() {
    long t = top_.load();
    const long b = bottom_.load();
    if (V == Variant::kStealFromEmpty ? t > b : t >= b) return kNone;
    const int task = slots_[t % kCapacity].load();
    return top_.compare_exchange_strong(t, t + 1) ? task : kNone;
  }

 private:
  std::atomic<int> slots_[kCapacity] = {};
  std::atomic<long> top_{0}, bottom_{0};
};

inline std::atomic<int> g_runs[kTasks];

inline void run(int task) {
  WEFT_ASSERT(task >= 0 && task < kTasks);  // a slot never filled is not a task
  g_runs[task].fetch_add(1);
}

template <Variant V>
inline void harness() {
  for (auto& r : g_runs) r = 0;
  Queue<V> q;
  for (int i = 0; i < kTasks; ++i) q.push(i);
  std::thread thief([&] {
    for (int i = 0; i < 2; ++i)
      if (int task = q.steal(); task != kNone) run(task);
  });
  for (int task; (task = q.pop()) != kNone;) run(task);
  thief.join();
  for (auto& r : g_runs) WEFT_ASSERT(r.load() == 1);  // every task exactly once
}

}  // namespace wsq
