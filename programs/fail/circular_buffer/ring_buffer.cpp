// A single-producer single-consumer ring buffer (lock-free, indices only ever grow). The
// producer advances the tail *before* it stores the value into the slot: the consumer,
// seeing the new tail, can read the slot before the value is there.
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdio>
#include <thread>

template <typename T, std::size_t N>
class RingBuffer {
 public:
  bool try_push(const T& value) {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_.load(std::memory_order_acquire) == N) return false;  // full
    tail_.store(tail + 1, std::memory_order_release);
    slots_[tail % N] = value;
    return true;
  }
  bool try_pop(T* value) {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) return false;  // empty
    *value = slots_[head % N];
    head_.store(head + 1, std::memory_order_release);
    return true;
  }

 private:
  T slots_[N] = {};
  std::atomic<std::size_t> head_{0};
  std::atomic<std::size_t> tail_{0};
};

int main() {
  constexpr int kMessages = 4;
  RingBuffer<int, 2> buffer;
  std::thread producer([&] {
    for (int seq = 1; seq <= kMessages; ++seq)
      while (!buffer.try_push(seq)) std::this_thread::yield();
  });
  std::thread consumer([&] {
    for (int expected = 1; expected <= kMessages; ++expected) {
      int seq;
      while (!buffer.try_pop(&seq)) std::this_thread::yield();
      assert(seq == expected && "messages arrive in order, each once");
    }
  });
  producer.join();
  consumer.join();
  std::puts("all messages received in order");
  return 0;
}
