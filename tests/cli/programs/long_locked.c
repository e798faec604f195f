// Correct and long: three threads each take a mutex 5,000 times to add to a counter,
// 30,000 steps, past a bound of 20,000 (--steps). No thread spins or yields: weft cuts
// such an execution at the bound, with a warning, and reports nothing. With `spin` as
// argument, main first waits with sched_yield for a flag nobody sets: a livelock, which
// must still be reported; with `poll`, it waits counting its rounds and never yields: a
// good-samaritan violation where it starves the others; with `tas` or `cas`, it spins to
// take a lock nobody releases, by exchange or compare-exchange (read-modify-writes that
// change nothing): a livelock too.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

enum { kThreads = 3, kAdds = 5000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static atomic_int never_set, rounds, held = 1;

static void* add(void* arg) {
  (void)arg;
  for (int i = 0; i < kAdds; ++i) {
    pthread_mutex_lock(&lock);
    ++counter;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(int argc, char** argv) {
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; ++i) pthread_create(&t[i], NULL, add, NULL);
  if (argc > 1 && strcmp(argv[1], "spin") == 0)
    while (!atomic_load(&never_set)) sched_yield();
  if (argc > 1 && strcmp(argv[1], "poll") == 0)
    while (!atomic_load(&never_set)) atomic_store(&rounds, atomic_load(&rounds) + 1);
  if (argc > 1 && strcmp(argv[1], "tas") == 0)
    while (atomic_exchange(&held, 1)) {
    }
  if (argc > 1 && strcmp(argv[1], "cas") == 0)
    for (int free_ = 0; !atomic_compare_exchange_strong(&held, &free_, 1); free_ = 0) {
    }
  for (int i = 0; i < kThreads; ++i) pthread_join(t[i], NULL);
  return counter == (long)kThreads * kAdds ? 0 : 1;
}
