// A bug that needs a timeout: the worker gives up on the lock after a second, which only
// happens if the holder takes that long (a timeout weft explores with --explore-timeouts).
#include <errno.h>
#include <pthread.h>
#include <time.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int gave_up;
static void* holder(void* x) {
  pthread_mutex_lock(&m);
  sched_yield();
  pthread_mutex_unlock(&m);
  return 0;
}
static void* worker(void* x) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 1;
  if (pthread_mutex_timedlock(&m, &deadline) == ETIMEDOUT)
    gave_up = 1;
  else
    pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, holder, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return gave_up ? 3 : 0;
}
