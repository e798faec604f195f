// Two threads take two mutexes in opposite orders, each after a step of its own. Three
// happens-before classes: T1's critical section first, the deadlock, and T2's first,
// which breaks the assertion. DPOR reaches the third only by reversing a race with a step
// the deadlock left blocked (T2's lock of a, which T1 held): a dpor that learnt nothing
// from blocked steps claimed "every class explored" with the deadlock alone.
//
// With "exit": T1 ends the process while holding a (T2 blocked on it, unseen): the order
// where T2 goes first is behind a blocked step again.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static int x, y, order, with_exit;

static void* first(void* arg) {
  x = 1;
  pthread_mutex_lock(&a);
  if (with_exit) exit(0);
  pthread_mutex_lock(&b);
  order = order * 10 + 1;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return arg;
}

static void* second(void* arg) {
  y = 1;
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  order = order * 10 + 2;
  assert(order != 2);  // T2 went first
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return arg;
}

int main(int argc, char** argv) {
  with_exit = argc > 1 && strcmp(argv[1], "exit") == 0;
  pthread_t t1, t2;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, second, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
