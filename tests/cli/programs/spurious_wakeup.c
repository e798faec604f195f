// A condition variable wait without a loop: correct unless the wait wakes spuriously
// (POSIX allows it), which weft explores with --spurious-wakeups.
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, seen;
static void* waiter(void* x) {
  pthread_mutex_lock(&m);
  if (!ready) pthread_cond_wait(&cv, &m);  // should be: while (!ready)
  seen = ready;
  pthread_mutex_unlock(&m);
  return 0;
}
static void* setter(void* x) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return seen ? 0 : 4;
}
