// A parallel-for: two workers add to every element of an array with atomic increments,
// more steps than the bound (--steps) allows. Memory changes at every step: a long
// execution cut at the bound, under every strategy, never a livelock.
#include <pthread.h>
#include <stdatomic.h>

#define N 4096
static atomic_int sums[N];

static void *body(void *arg) {
  (void)arg;
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < N; ++i) atomic_fetch_add(&sums[i], 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, body, 0);
  pthread_create(&b, 0, body, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return atomic_load(&sums[N - 1]) == 8 ? 0 : 1;
}
