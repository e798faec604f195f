// Two threads take a lock, try it again while they hold it, then record their turn: the
// program fails (exit status 1) when the second thread takes the lock first. dpor once
// missed that order: the holder's failed try hid the step that took the lock from its
// race analysis. The lock: an errorcheck mutex (a failed trylock, EBUSY, and a relock,
// EDEADLK), or with argument `sem` a semaphore of 1 (sem_trywait), or `rw` an rwlock
// (wrlock, then tryrdlock).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>

static pthread_mutex_t m;
static sem_t s;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int order[2], n;
static const char* kind = "mutex";

static void* work(void* arg) {
  if (strcmp(kind, "sem") == 0) {
    sem_wait(&s);
    if (sem_trywait(&s) == 0) return arg;
  } else if (strcmp(kind, "rw") == 0) {
    pthread_rwlock_wrlock(&rw);
    if (pthread_rwlock_tryrdlock(&rw) == 0) return arg;
  } else {
    pthread_mutex_lock(&m);
    if (pthread_mutex_trylock(&m) != EBUSY || pthread_mutex_lock(&m) != EDEADLK) return arg;
  }
  order[n++] = (int)(long)arg;
  if (strcmp(kind, "sem") == 0)
    sem_post(&s);
  else if (strcmp(kind, "rw") == 0)
    pthread_rwlock_unlock(&rw);
  else
    pthread_mutex_unlock(&m);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1) kind = argv[1];
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  sem_init(&s, 0, 1);
  pthread_t t[2];
  for (long i = 0; i < 2; ++i) pthread_create(&t[i], 0, work, (void*)i);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
  return order[0] == 0 ? 0 : 1;
}
