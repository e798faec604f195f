// Five ways to leave two accesses to `data` unordered; argv[1] picks one. Each is a data
// race (undefined behaviour) whatever the schedule, so weft reports it in the first
// execution that runs both accesses, naming both lines. programs/pass/races is the twin
// where the same synchronisation is used correctly.
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstdio>
#include <cstring>

int data;
int sink;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
bool ready = false;  // guarded by m1
std::atomic<int> flag{0};

// After a spin on a flag the compiler may attribute an inlined read to the loop's line.
__attribute__((noinline)) void read_data() {
  sink = data;  // race: read_data (relaxed_flag, no_acquire)
}

void* missing_lock_writer(void*) {
  pthread_mutex_lock(&m1);
  data = 1;  // race: missing_lock
  pthread_mutex_unlock(&m1);
  return nullptr;
}
void* missing_lock_reader(void*) {
  sink = data;  // race: missing_lock (no lock taken)
  return nullptr;
}

void* wrong_lock_writer(void*) {
  pthread_mutex_lock(&m1);
  data = 2;  // race: wrong_lock
  pthread_mutex_unlock(&m1);
  return nullptr;
}
void* wrong_lock_reader(void*) {
  pthread_mutex_lock(&m2);
  sink = data;  // race: wrong_lock (another mutex)
  pthread_mutex_unlock(&m2);
  return nullptr;
}

void* relaxed_flag_writer(void*) {
  data = 3;  // race: relaxed_flag
  flag.store(1, std::memory_order_relaxed);
  return nullptr;
}
void* relaxed_flag_reader(void*) {
  while (flag.load(std::memory_order_relaxed) == 0) sched_yield();
  read_data();  // a relaxed flag orders nothing
  return nullptr;
}

void* no_acquire_writer(void*) {
  data = 4;  // race: no_acquire
  flag.store(1, std::memory_order_release);
  return nullptr;
}
void* no_acquire_reader(void*) {
  while (flag.load(std::memory_order_relaxed) == 0) sched_yield();
  read_data();  // the release has no matching acquire
  return nullptr;
}

void* signal_first_writer(void*) {
  pthread_mutex_lock(&m1);
  ready = true;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m1);
  data = 5;  // race: signal_first (written after signalling)
  return nullptr;
}
void* signal_first_reader(void*) {
  pthread_mutex_lock(&m1);
  while (!ready) pthread_cond_wait(&cv, &m1);
  pthread_mutex_unlock(&m1);
  sink = data;  // race: signal_first
  return nullptr;
}

int main(int argc, char** argv) {
  struct Variant {
    const char* name;
    void* (*writer)(void*);
    void* (*reader)(void*);
  } variants[] = {{"missing_lock", missing_lock_writer, missing_lock_reader},
                  {"wrong_lock", wrong_lock_writer, wrong_lock_reader},
                  {"relaxed_flag", relaxed_flag_writer, relaxed_flag_reader},
                  {"no_acquire", no_acquire_writer, no_acquire_reader},
                  {"signal_first", signal_first_writer, signal_first_reader}};
  for (const Variant& v : variants) {
    if (argc < 2 || std::strcmp(argv[1], v.name) != 0) continue;
    pthread_t w, r;
    pthread_create(&w, nullptr, v.writer, nullptr);
    pthread_create(&r, nullptr, v.reader, nullptr);
    pthread_join(w, nullptr);
    pthread_join(r, nullptr);
    return 0;
  }
  std::fprintf(stderr, "usage: races missing_lock|wrong_lock|relaxed_flag|no_acquire|signal_first\n");
  return 2;
}
