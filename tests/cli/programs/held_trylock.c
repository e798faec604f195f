// Two threads take an errorcheck mutex, try it again while they hold it (EBUSY) and
// relock it (EDEADLK), then record their turn: the program fails (exit status 1) when
// the second thread locks first. dpor once missed that lock order: the holder's failed tries hid the lock
// that took the mutex from its race analysis.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>

static pthread_mutex_t m;
static int order[2], n;

static void* work(void* arg) {
  pthread_mutex_lock(&m);
  if (pthread_mutex_trylock(&m) != EBUSY || pthread_mutex_lock(&m) != EDEADLK) return arg;
  order[n++] = (int)(long)arg;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_t t[2];
  for (long i = 0; i < 2; ++i) pthread_create(&t[i], 0, work, (void*)i);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
  return order[0] == 0 ? 0 : 1;
}
