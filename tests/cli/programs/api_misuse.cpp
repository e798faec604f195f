// Threading API misuse (api-misuse), one case per argument: each misuse next to a near
// twin that is correct and must never be reported. Every case is a whole program of its
// own: `api_misuse <case>`.
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>

namespace {

pthread_mutex_t g_static = PTHREAD_MUTEX_INITIALIZER;
std::mutex g_std;
std::atomic<int> g_arrived{0};

void check(bool ok) {
  if (!ok) abort();  // not assert: NDEBUG builds drop it
}

void wait_arrived() {
  while (g_arrived.load() == 0) sched_yield();
}

pthread_mutex_t* new_mutex(int type) {
  auto* m = static_cast<pthread_mutex_t*>(malloc(sizeof(pthread_mutex_t)));  // MUTEX-ALLOC
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, type);
  pthread_mutex_init(m, &a);
  pthread_mutexattr_destroy(&a);
  return m;
}

// --- unlock by a thread that does not hold it ----------------------------------------
int unlock_not_owner() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  pthread_mutex_lock(m);  // MAIN-LOCKS
  std::thread t([m] { pthread_mutex_unlock(m); });  // OTHER-UNLOCKS
  t.join();
  return 0;
}

int std_unlock_not_owner() {
  g_std.lock();
  std::thread t([] { g_std.unlock(); });
  t.join();
  return 0;
}

// Twin: an errorcheck mutex says EPERM, and the program expects it.
int errorcheck_not_owner() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_lock(m);
  std::thread t([m] { check(pthread_mutex_unlock(m) == EPERM); });
  t.join();
  check(pthread_mutex_unlock(m) == 0);
  check(pthread_mutex_unlock(m) == EPERM);  // unlocked: defined too
  pthread_mutex_destroy(m);
  free(m);
  return 0;
}

// Twin: a recursive mutex locked twice and unlocked twice, by two threads in turn.
int recursive_twice() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_RECURSIVE);
  auto body = [m] {
    pthread_mutex_lock(m);
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    pthread_mutex_unlock(m);
  };
  std::thread a(body), b(body);
  a.join();
  b.join();
  pthread_mutex_destroy(m);
  free(m);
  return 0;
}

// Twin: a static initializer and std::mutex (zero bytes, never pthread_mutex_init).
int static_and_std() {
  int by_static = 0, by_std = 0;
  auto body = [&] {
    pthread_mutex_lock(&g_static);
    ++by_static;
    pthread_mutex_unlock(&g_static);
    std::lock_guard<std::mutex> hold(g_std);
    ++by_std;
  };
  std::thread a(body), b(body);
  a.join();
  b.join();
  check(by_static == 2 && by_std == 2);
  return 0;
}

// --- unlock of an unlocked mutex -----------------------------------------------------
int unlock_unlocked() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  std::thread t([m] {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    pthread_mutex_unlock(m);  // TWICE
  });
  t.join();
  return 0;
}

// --- destroy of a locked mutex -------------------------------------------------------
// The worker may still hold it when main destroys it (no join first).
int destroy_locked() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  std::thread t([m] {
    pthread_mutex_lock(m);
    g_arrived = 1;
    pthread_mutex_unlock(m);
  });
  wait_arrived();
  pthread_mutex_destroy(m);  // DESTROY-LOCKED
  t.join();
  return 0;
}

// Twin: joined first.
int destroy_after_join() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  std::thread t([m] {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
  });
  t.join();
  check(pthread_mutex_destroy(m) == 0);
  free(m);
  return 0;
}

// --- lock, unlock or destroy of a destroyed mutex ------------------------------------
int lock_destroyed() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  pthread_mutex_destroy(m);  // DESTROY-FIRST
  std::thread t([m] {
    pthread_mutex_lock(m);  // LOCK-DESTROYED
    pthread_mutex_unlock(m);
  });
  t.join();
  return 0;
}

int destroy_twice() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  std::thread t([m] {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
  });
  t.join();
  pthread_mutex_destroy(m);
  pthread_mutex_destroy(m);
  return 0;
}

// Twin: destroyed, then initialised again (by pthread_mutex_init, and by a std::mutex
// made in the same memory, which writes zeros and calls nothing).
int reinitialised() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_DEFAULT);
  pthread_mutex_destroy(m);
  pthread_mutex_init(m, nullptr);
  std::thread t([m] {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
  });
  t.join();
  pthread_mutex_destroy(m);
  static_assert(sizeof(std::mutex) == sizeof(pthread_mutex_t));
  auto* s = new (m) std::mutex;
  std::thread u([s] { std::lock_guard<std::mutex> hold(*s); });
  s->lock();
  s->unlock();
  u.join();
  s->~mutex();
  free(m);
  return 0;
}

// Not misuse but a crash: a mutex in memory given back to the system. The fault is in
// weft's read of it, and is reported at the program's call.
int lock_unmapped() {
  const long page = sysconf(_SC_PAGESIZE);
  void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  check(p != MAP_FAILED);
  auto* m = static_cast<pthread_mutex_t*>(p);
  pthread_mutex_init(m, nullptr);
  std::thread t([m] {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
  });
  t.join();
  munmap(p, page);
  pthread_mutex_lock(m);  // LOCK-UNMAPPED
  return 0;
}

// --- destroy of a condition variable with waiters ------------------------------------
struct Waiting {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  bool ready = false;
};

void wait_ready(Waiting* w) {
  pthread_mutex_lock(&w->m);
  g_arrived = 1;
  while (!w->ready) pthread_cond_wait(&w->cv, &w->m);  // COND-WAIT
  pthread_mutex_unlock(&w->m);
}

int cond_destroy_waiters() {
  auto* w = new Waiting;
  std::thread t(wait_ready, w);
  wait_arrived();
  pthread_mutex_lock(&w->m);  // the worker waits now: it let go of the mutex
  pthread_cond_destroy(&w->cv);  // COND-DESTROY
  w->ready = true;
  pthread_mutex_unlock(&w->m);
  t.join();
  return 0;
}

// Twin: a broadcast, then the destroy while the woken worker is on its way out.
int cond_broadcast_destroy() {
  auto* w = new Waiting;
  std::thread t(wait_ready, w);
  wait_arrived();
  pthread_mutex_lock(&w->m);
  w->ready = true;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->m);
  check(pthread_cond_destroy(&w->cv) == 0);
  t.join();
  delete w;
  return 0;
}

// --- semaphores and barriers destroyed with waiters -----------------------------------
int sem_destroy_waiters() {
  static sem_t s;
  sem_init(&s, 0, 0);
  std::thread t([] {
    g_arrived = 1;
    sem_wait(&s);  // SEM-WAIT
  });
  wait_arrived();
  sem_destroy(&s);  // SEM-DESTROY
  t.join();
  return 0;
}

int sem_post_join_destroy() {
  static sem_t s;
  sem_init(&s, 0, 0);
  std::thread t([] { sem_wait(&s); });
  sem_post(&s);
  t.join();
  check(sem_destroy(&s) == 0);
  return 0;
}

int barrier_destroy_waiters() {
  static pthread_barrier_t b;
  pthread_barrier_init(&b, nullptr, 2);
  std::thread t([] {
    g_arrived = 1;
    pthread_barrier_wait(&b);  // BARRIER-WAIT
  });
  wait_arrived();
  pthread_barrier_destroy(&b);  // BARRIER-DESTROY
  pthread_barrier_wait(&b);
  t.join();
  return 0;
}

// Twin: main is the second arrival; the worker, released, may not have left yet.
int barrier_wait_destroy() {
  static pthread_barrier_t b;
  pthread_barrier_init(&b, nullptr, 2);
  std::thread t([] { pthread_barrier_wait(&b); });
  pthread_barrier_wait(&b);
  check(pthread_barrier_destroy(&b) == 0);
  t.join();
  return 0;
}

// --- a wait with a mutex the caller does not hold -------------------------------------
int cond_wait_unheld() {
  static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  std::thread t([] {
    timespec soon{};
    clock_gettime(CLOCK_REALTIME, &soon);
    pthread_cond_timedwait(&cv, &m, &soon);  // COND-WAIT-UNHELD
  });
  t.join();
  return 0;
}

// Twin: an errorcheck mutex says EPERM, and the program expects it.
int errorcheck_cond_wait_unheld() {
  pthread_mutex_t* m = new_mutex(PTHREAD_MUTEX_ERRORCHECK);
  static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  std::thread t([m] { check(pthread_cond_wait(&cv, m) == EPERM); });
  t.join();
  pthread_mutex_destroy(m);
  free(m);
  return 0;
}

// --- read-write locks -----------------------------------------------------------------
int rwlock_unlock_not_owner() {
  static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
  pthread_rwlock_wrlock(&l);  // MAIN-WRLOCKS
  std::thread t([] { pthread_rwlock_unlock(&l); });  // OTHER-RWUNLOCKS
  t.join();
  return 0;
}

int rwlock_unlock_unlocked() {
  static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
  std::thread t([] {
    pthread_rwlock_rdlock(&l);
    pthread_rwlock_unlock(&l);
    pthread_rwlock_unlock(&l);
  });
  t.join();
  return 0;
}

std::atomic<int> g_release{0};

// The worker still holds it for reading when main destroys it.
int rwlock_destroy_held() {
  static pthread_rwlock_t l;
  pthread_rwlock_init(&l, nullptr);
  std::thread t([] {
    pthread_rwlock_rdlock(&l);
    g_arrived = 1;
    while (g_release.load() == 0) sched_yield();
    pthread_rwlock_unlock(&l);
  });
  wait_arrived();
  pthread_rwlock_destroy(&l);  // RWLOCK-DESTROY
  g_release = 1;
  t.join();
  return 0;
}

// Twin: std::shared_mutex's readers and writer, then a destroy after the join.
int rwlock_correct() {
  static pthread_rwlock_t l;
  pthread_rwlock_init(&l, nullptr);
  int value = 0;
  auto reader = [&value] {
    pthread_rwlock_rdlock(&l);
    check(value >= 0);
    pthread_rwlock_unlock(&l);
  };
  std::thread a(reader), b(reader), w([&value] {
    pthread_rwlock_wrlock(&l);
    ++value;
    pthread_rwlock_unlock(&l);
  });
  a.join();
  b.join();
  w.join();
  check(pthread_rwlock_destroy(&l) == 0);
  return 0;
}

struct Case {
  const char* name;
  int (*run)();
};

const Case kCases[] = {
    {"unlock_not_owner", unlock_not_owner},
    {"std_unlock_not_owner", std_unlock_not_owner},
    {"errorcheck_not_owner", errorcheck_not_owner},
    {"recursive_twice", recursive_twice},
    {"static_and_std", static_and_std},
    {"unlock_unlocked", unlock_unlocked},
    {"destroy_locked", destroy_locked},
    {"destroy_after_join", destroy_after_join},
    {"lock_destroyed", lock_destroyed},
    {"destroy_twice", destroy_twice},
    {"reinitialised", reinitialised},
    {"lock_unmapped", lock_unmapped},
    {"cond_destroy_waiters", cond_destroy_waiters},
    {"cond_broadcast_destroy", cond_broadcast_destroy},
    {"sem_destroy_waiters", sem_destroy_waiters},
    {"sem_post_join_destroy", sem_post_join_destroy},
    {"barrier_destroy_waiters", barrier_destroy_waiters},
    {"barrier_wait_destroy", barrier_wait_destroy},
    {"cond_wait_unheld", cond_wait_unheld},
    {"errorcheck_cond_wait_unheld", errorcheck_cond_wait_unheld},
    {"rwlock_unlock_not_owner", rwlock_unlock_not_owner},
    {"rwlock_unlock_unlocked", rwlock_unlock_unlocked},
    {"rwlock_destroy_held", rwlock_destroy_held},
    {"rwlock_correct", rwlock_correct},
};

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : kCases)
    if (argc > 1 && std::strcmp(argv[1], c.name) == 0) return c.run();
  return 2;
}
