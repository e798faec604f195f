// A data race whose earlier access is followed by a long run of its thread's steps: main
// reads `shared`, increments a counter twenty times, and only then joins the writer.
#include <pthread.h>
#include <stdatomic.h>

int shared;  // not static: clang would know it is never 2 and drop the read
static atomic_int work;

static void* writer(void* arg) {
  (void)arg;
  shared = 1;  // the race: main reads it with no lock and before the join
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int seen = shared;
  for (int i = 0; i < 20; ++i) atomic_fetch_add_explicit(&work, 1, memory_order_relaxed);
  pthread_join(t, 0);
  return seen == 2;
}
