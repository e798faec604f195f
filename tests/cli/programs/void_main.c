// `void main()`: the exit status is whatever the return register held (a common shape in
// old test suites); --expect-exit any declares that no status is a bug.
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *add(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  ++counter;
  pthread_mutex_unlock(&lock);
  return 0;
}

void main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  printf("counter %d\n", counter);
}
