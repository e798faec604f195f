// The twin of programs/fail/races: two threads hand `data` over through each kind of
// synchronisation weft models, correctly; argv[1] picks the kind. No data race may be
// reported, under any schedule.
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <thread>

int data;
int sink;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
bool ready = false;  // guarded by m1
std::atomic<int> flag{0};
sem_t sem;
pthread_barrier_t barrier;
pthread_once_t once = PTHREAD_ONCE_INIT;
std::mutex std_mutex;
std::shared_mutex shared;

void* mutex_writer(void*) {
  pthread_mutex_lock(&m1);
  data = 1;
  pthread_mutex_unlock(&m1);
  return nullptr;
}
void* mutex_reader(void*) {
  pthread_mutex_lock(&m1);
  sink = data;
  pthread_mutex_unlock(&m1);
  return nullptr;
}

void* rwlock_writer(void*) {
  pthread_rwlock_wrlock(&rw);
  data = 2;
  pthread_rwlock_unlock(&rw);
  return nullptr;
}
void* rwlock_reader(void*) {
  pthread_rwlock_rdlock(&rw);
  sink = data;
  pthread_rwlock_unlock(&rw);
  return nullptr;
}

void* cond_writer(void*) {
  pthread_mutex_lock(&m1);
  data = 3;
  ready = true;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m1);
  return nullptr;
}
void* cond_reader(void*) {
  pthread_mutex_lock(&m1);
  while (!ready) pthread_cond_wait(&cv, &m1);
  pthread_mutex_unlock(&m1);
  sink = data;
  return nullptr;
}

void* sem_writer(void*) {
  data = 4;
  sem_post(&sem);
  return nullptr;
}
void* sem_reader(void*) {
  sem_wait(&sem);
  sink = data;
  return nullptr;
}

void* barrier_writer(void*) {
  data = 5;
  pthread_barrier_wait(&barrier);
  return nullptr;
}
void* barrier_reader(void*) {
  pthread_barrier_wait(&barrier);
  sink = data;
  return nullptr;
}

void* atomic_writer(void*) {
  data = 6;
  flag.store(1, std::memory_order_release);
  return nullptr;
}
void* atomic_reader(void*) {
  while (flag.load(std::memory_order_acquire) == 0) sched_yield();
  sink = data;
  return nullptr;
}

void* fence_writer(void*) {
  data = 7;
  std::atomic_thread_fence(std::memory_order_release);
  flag.store(1, std::memory_order_relaxed);
  return nullptr;
}
void* fence_reader(void*) {
  while (flag.load(std::memory_order_relaxed) == 0) sched_yield();
  std::atomic_thread_fence(std::memory_order_acquire);
  sink = data;
  return nullptr;
}

void init_data() { data = 8; }
void* once_both(void*) {
  pthread_once(&once, init_data);
  return reinterpret_cast<void*>(static_cast<long>(data));  // both read; only init writes
}

void* std_writer(void*) {
  std::lock_guard<std::mutex> g(std_mutex);
  data = 9;
  return nullptr;
}
void* std_reader(void*) {
  std::shared_lock<std::shared_mutex> g(shared);  // readers among themselves...
  std::lock_guard<std::mutex> h(std_mutex);       // ...and the writer's mutex
  sink = data;
  return nullptr;
}

// The main thread reads what a joined thread wrote, and a thread reads what main wrote
// before creating it.
void* join_writer(void*) {
  data = 10;
  return nullptr;
}
void* join_reader(void*) { return nullptr; }

int main(int argc, char** argv) {
  sem_init(&sem, 0, 0);
  pthread_barrier_init(&barrier, nullptr, 2);
  struct Variant {
    const char* name;
    void* (*writer)(void*);
    void* (*reader)(void*);
  } variants[] = {{"mutex", mutex_writer, mutex_reader},    {"rwlock", rwlock_writer, rwlock_reader},
                  {"cond", cond_writer, cond_reader},       {"sem", sem_writer, sem_reader},
                  {"barrier", barrier_writer, barrier_reader}, {"atomic", atomic_writer, atomic_reader},
                  {"fence", fence_writer, fence_reader},    {"once", once_both, once_both},
                  {"std", std_writer, std_reader},          {"join", join_writer, join_reader}};
  for (const Variant& v : variants) {
    if (argc < 2 || std::strcmp(argv[1], v.name) != 0) continue;
    data = 0;
    pthread_t w, r;
    pthread_create(&w, nullptr, v.writer, nullptr);
    pthread_create(&r, nullptr, v.reader, nullptr);
    pthread_join(w, nullptr);
    pthread_join(r, nullptr);
    sink = data;
    std::thread t([] { sink = data; });  // std::thread: created after the joins
    t.join();
    return 0;
  }
  std::fprintf(stderr, "usage: races mutex|rwlock|cond|sem|barrier|atomic|fence|once|std|join\n");
  return 2;
}
