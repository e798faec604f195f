// Two threads take a test-and-set lock made of a plain volatile int and never give it
// back: the second spins for ever. A run's --time holds inside such an execution: weft
// stops it and reports within the budget, whatever the strategy.
#include <pthread.h>

static volatile int held;

static void* taker(void* arg) {
  (void)arg;
  for (;;) {
    while (held) {
    }
    held = 1;  // not atomic: both may take it; then each waits for the other for ever
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, taker, 0);
  pthread_create(&b, 0, taker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
