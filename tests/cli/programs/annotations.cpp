// Library-shaped code that speaks ThreadSanitizer's annotation API, one case per argument
// (`annotations <case>`): each annotated case next to its unannotated twin.
#include <sanitizer/tsan_interface.h>
#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

// What a library that detects __SANITIZE_THREAD__ declares (TSan's dynamic annotations).
extern "C" {
void AnnotateHappensBefore(const char* file, int line, const volatile void* addr);
void AnnotateHappensAfter(const char* file, int line, const volatile void* addr);
void AnnotateBenignRaceSized(const char* file, int line, const volatile void* addr, unsigned long size,
                             const char* description);
void AnnotateIgnoreReadsBegin(const char* file, int line);
void AnnotateIgnoreReadsEnd(const char* file, int line);
void AnnotateRWLockAcquired(const char* file, int line, const volatile void* lock, long is_w);
void AnnotateRWLockReleased(const char* file, int line, const volatile void* lock, long is_w);
}

namespace {

void check(bool ok) {
  if (!ok) abort();
}

// --- a message queue of one slot whose flag is relaxed: the annotations carry the order --
struct Slot {
  int payload = 0;
  std::atomic<int> full{0};
};

template <bool kAnnotated>
int relaxed_queue() {
  static Slot s;
  std::thread producer([] {
    s.payload = 42;
    if (kAnnotated) AnnotateHappensBefore(__FILE__, __LINE__, &s.full);
    s.full.store(1, std::memory_order_relaxed);
  });
  while (s.full.load(std::memory_order_relaxed) == 0) sched_yield();
  if (kAnnotated) AnnotateHappensAfter(__FILE__, __LINE__, &s.full);
  check(s.payload == 42);  // PAYLOAD-READ
  producer.join();
  return 0;
}

int tsan_release_acquire() {
  static Slot s;
  std::thread producer([] {
    s.payload = 42;
    __tsan_release(&s.full);
    s.full.store(1, std::memory_order_relaxed);
  });
  while (s.full.load(std::memory_order_relaxed) == 0) sched_yield();
  __tsan_acquire(&s.full);
  check(s.payload == 42);
  producer.join();
  return 0;
}

// --- races the program accepts: a statistics counter, an unchecked peek ---------------
int benign_counter() {
  static int hits = 0;
  AnnotateBenignRaceSized(__FILE__, __LINE__, &hits, sizeof hits, "approximate statistics");
  std::thread a([] { ++hits; }), b([] { ++hits; });
  a.join();
  b.join();
  return 0;
}

int ignored_peek() {
  static int value = 0;
  std::thread writer([] { value = 1; });
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  const int peek = value;
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
  writer.join();
  return peek >= 0 ? 0 : 1;
}

// --- a spin mutex of the program's own, annotated as abseil and folly do -----------------
class SpinMutex {
 public:
  SpinMutex() { __tsan_mutex_create(this, __tsan_mutex_not_static); }
  ~SpinMutex() { __tsan_mutex_destroy(this, __tsan_mutex_not_static); }
  void lock() {
    __tsan_mutex_pre_lock(this, 0);
    while (held_.exchange(true, std::memory_order_acquire)) sched_yield();
    __tsan_mutex_post_lock(this, 0, 0);
  }
  bool try_lock() {
    __tsan_mutex_pre_lock(this, __tsan_mutex_try_lock);
    const bool ok = !held_.exchange(true, std::memory_order_acquire);
    __tsan_mutex_post_lock(this, ok ? __tsan_mutex_try_lock : __tsan_mutex_try_lock_failed | __tsan_mutex_try_lock, 0);
    return ok;
  }
  void unlock() {
    __tsan_mutex_pre_unlock(this, 0);
    held_.store(false, std::memory_order_release);
    __tsan_mutex_post_unlock(this, 0);
  }

 private:
  std::atomic<bool> held_{false};
};

// Locks taken in opposite orders: a deadlock, not a spin.
int spin_deadlock() {
  static SpinMutex a, b;
  std::thread t([] {
    b.lock();
    a.lock();  // SECOND-LOCK
    a.unlock();
    b.unlock();
  });
  a.lock();
  b.lock();
  b.unlock();
  a.unlock();
  t.join();
  return 0;
}

// Twin: one order, a counter under the lock, a try-lock that may fail.
int spin_counter() {
  static SpinMutex m;
  static int count = 0;
  auto add = [] {
    m.lock();
    ++count;
    m.unlock();
    if (m.try_lock()) {
      ++count;
      m.unlock();
    }
  };
  std::thread a(add), b(add);
  a.join();
  b.join();
  check(count >= 2 && count <= 4);
  return 0;
}

// --- a read-write lock of the program's own, annotated with AnnotateRWLock* -----------
class SpinRwLock {
 public:
  void lock() {
    int expected = 0;
    while (!state_.compare_exchange_weak(expected, -1)) {
      expected = 0;
      sched_yield();
    }
    AnnotateRWLockAcquired(__FILE__, __LINE__, this, 1);
  }
  void unlock() {
    AnnotateRWLockReleased(__FILE__, __LINE__, this, 1);
    state_.store(0, std::memory_order_relaxed);
  }
  void lock_shared() {
    for (;;) {
      int n = state_.load(std::memory_order_relaxed);
      if (n >= 0 && state_.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) break;
      sched_yield();
    }
    AnnotateRWLockAcquired(__FILE__, __LINE__, this, 0);
  }
  void unlock_shared() {
    AnnotateRWLockReleased(__FILE__, __LINE__, this, 0);
    state_.fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  std::atomic<int> state_{0};  // -1: a writer; n > 0: n readers (relaxed: annotated)
};

int rw_annotated() {
  static SpinRwLock l;
  static int value = 0;
  std::thread w([] {
    l.lock();
    ++value;
    l.unlock();
  });
  std::thread r([] {
    l.lock_shared();
    check(value >= 0);
    l.unlock_shared();
  });
  l.lock_shared();
  check(value >= 0);
  l.unlock_shared();
  w.join();
  r.join();
  return 0;
}

struct Case {
  const char* name;
  int (*run)();
};

const Case kCases[] = {
    {"annotated_queue", relaxed_queue<true>},
    {"unannotated_queue", relaxed_queue<false>},
    {"tsan_release_acquire", tsan_release_acquire},
    {"benign_counter", benign_counter},
    {"ignored_peek", ignored_peek},
    {"spin_deadlock", spin_deadlock},
    {"spin_counter", spin_counter},
    {"rw_annotated", rw_annotated},
};

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : kCases)
    if (argc > 1 && std::strcmp(argv[1], c.name) == 0) return c.run();
  return 2;
}
