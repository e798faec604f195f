// pthread_cancel, deferred: a thread cancelled while it waits on a condition variable
// exits with PTHREAD_CANCELED, the mutex reacquired for its cleanup handler, which
// unlocks it; one cancelled in sem_wait; one that disables cancellation around its work
// and acts on it at pthread_testcancel; one that may finish before it is cancelled.
// With the argument "forget-cleanup" the waiter has no cleanup handler: cancelled in its
// wait, it exits holding the mutex, and main's lock never returns (a deadlock).
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static sem_t s;
static int forget_cleanup;
static int work_done;

static void unlock(void* arg) { pthread_mutex_unlock(arg); }

static void* waiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (forget_cleanup) {
    for (;;) pthread_cond_wait(&c, &m);
  }
  pthread_cleanup_push(unlock, &m);
  for (;;) pthread_cond_wait(&c, &m);
  pthread_cleanup_pop(1);
  return NULL;
}

static void* sem_waiter(void* arg) {
  (void)arg;
  sem_wait(&s);
  return (void*)1;
}

static void* careful(void* arg) {
  (void)arg;
  int old;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
  work_done = 1;  // never cut short
  pthread_setcancelstate(old, NULL);
  pthread_testcancel();
  return (void*)2;
}

static void* quick(void* arg) { return arg; }

int main(int argc, char** argv) {
  forget_cleanup = argc > 1 && strcmp(argv[1], "forget-cleanup") == 0;
  sem_init(&s, 0, 0);
  pthread_t t[4];
  pthread_create(&t[0], NULL, waiter, NULL);
  pthread_create(&t[1], NULL, sem_waiter, NULL);
  pthread_create(&t[2], NULL, careful, NULL);
  pthread_create(&t[3], NULL, quick, (void*)3);
  for (int i = 0; i < 4; ++i) pthread_cancel(t[i]);
  void* r[4];
  for (int i = 0; i < 4; ++i) pthread_join(t[i], &r[i]);
  pthread_mutex_lock(&m);  // the cancelled waiter left it unlocked
  pthread_mutex_unlock(&m);
  if (r[0] != PTHREAD_CANCELED || r[1] != PTHREAD_CANCELED) return 1;
  if (r[2] != PTHREAD_CANCELED && r[2] != (void*)2) return 2;  // done before the cancel
  if (r[3] != PTHREAD_CANCELED && r[3] != (void*)3) return 3;
  if (r[2] == PTHREAD_CANCELED && !work_done) return 4;
  puts("cancelled");
  return 0;
}
