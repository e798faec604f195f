// Two threads wait, yielding, for a flag nobody sets: a livelock under fair scheduling
// whose trace alternates between them to the step bound (every step a thread switch, so
// no report folds it). Its reports must stay small, and its long schedule replay.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int go;

static void *wait_go(void *arg) {
  (void)arg;
  while (!atomic_load(&go)) sched_yield();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, wait_go, 0);
  pthread_create(&b, 0, wait_go, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
