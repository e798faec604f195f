// A correct program that uses most of pthreads at once (barrier, condition variable with a
// timed wait, semaphore, rwlock, spin lock, trylock-and-yield loop, thread-specific data
// with a destructor, a detached thread, C11 atomics): never to be reported.
#include <stdlib.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>

// Not assert: the build may define NDEBUG.
#define check(c) \
  do {                \
    if (!(c)) abort(); \
  } while (0)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready = 0;
static sem_t sem;
static pthread_barrier_t bar;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static atomic_int counter = 0;
static volatile int vflag = 0;
static pthread_key_t key;
static atomic_int dtors = 0;
static int shared = 0;

static void dtor(void* p) { free(p); atomic_fetch_add(&dtors, 1); }

static void* worker(void* arg) {
  long id = (long)arg;
  pthread_setspecific(key, malloc(16));
  pthread_barrier_wait(&bar);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&cv, &m);
  pthread_mutex_unlock(&m);
  sem_wait(&sem);
  pthread_rwlock_wrlock(&rw); shared += 1; pthread_rwlock_unlock(&rw);
  sem_post(&sem);
  pthread_spin_lock(&spin); atomic_fetch_add(&counter, 1); pthread_spin_unlock(&spin);
  while (pthread_mutex_trylock(&m) != 0) sched_yield();
  pthread_mutex_unlock(&m);
  struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); ts.tv_nsec += 1000000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  pthread_mutex_lock(&m);
  int rc = pthread_cond_timedwait(&cv, &m, &ts);
  check(rc == 0 || rc == ETIMEDOUT);
  pthread_mutex_unlock(&m);
  return (void*)id;
}

static void* detached(void* arg) { (void)arg; __atomic_store_n(&vflag, 1, __ATOMIC_RELEASE); return NULL; }

int main(void) {
  sem_init(&sem, 0, 1);
  pthread_barrier_init(&bar, NULL, 3);
  pthread_spin_init(&spin, 0);
  pthread_key_create(&key, dtor);
  pthread_t t[3];
  for (long i = 0; i < 3; ++i) pthread_create(&t[i], NULL, worker, (void*)i);
  pthread_mutex_lock(&m); ready = 1; pthread_cond_broadcast(&cv); pthread_mutex_unlock(&m);
  pthread_attr_t a; pthread_attr_init(&a); pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_t d; pthread_create(&d, &a, detached, NULL);
  while (!__atomic_load_n(&vflag, __ATOMIC_ACQUIRE)) sched_yield();
  for (long i = 0; i < 3; ++i) { void* r; pthread_join(t[i], &r); check((long)r == i); }
  pthread_rwlock_rdlock(&rw); check(shared == 3); pthread_rwlock_unlock(&rw);
  check(atomic_load(&counter) == 3);
  check(atomic_load(&dtors) == 3);
  printf("ok\n");
  return 0;
}
