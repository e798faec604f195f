// A lost wakeup: the signal can come before the wait, which then waits forever. Only a
// spurious wakeup would mask it; weft still reports the deadlock with --spurious-wakeups.
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static void* waiter(void* x) {
  pthread_mutex_lock(&m);
  pthread_cond_wait(&cv, &m);  // no predicate: a signal sent earlier is lost
  pthread_mutex_unlock(&m);
  return 0;
}
static void* signaller(void* x) {
  pthread_mutex_lock(&m);
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, signaller, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
