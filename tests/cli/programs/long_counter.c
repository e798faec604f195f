// Two threads each add 60,000 times to an atomic counter: 120,000 steps, past the default
// bound of 100,000, though nothing spins. weft cuts the execution there (a long one, not
// a livelock); with a larger bound the program runs to its end.
#include <pthread.h>
#include <stdatomic.h>

static atomic_int counter;

static void* add(void* arg) {
  (void)arg;
  for (int i = 0; i < 60000; ++i) atomic_fetch_add(&counter, 1);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, add, NULL);
  pthread_create(&b, NULL, add, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return atomic_load(&counter) == 120000 ? 0 : 1;
}
