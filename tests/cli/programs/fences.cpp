// Message passing through a relaxed flag, ordered by release and acquire fences (`fenced`)
// or not at all (`unfenced`: a data race on the payload). weft models fences.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

int payload;
std::atomic<int> flag{0};

int main(int argc, char** argv) {
  const bool fenced = argc > 1 && std::strcmp(argv[1], "fenced") == 0;
  std::thread producer([fenced] {
    payload = 1;
    if (fenced) std::atomic_thread_fence(std::memory_order_release);
    flag.store(1, std::memory_order_relaxed);
  });
  while (flag.load(std::memory_order_relaxed) == 0) {
  }
  if (fenced) std::atomic_thread_fence(std::memory_order_acquire);
  const int seen = payload;
  producer.join();
  return seen == 1 ? 0 : 1;
}
