// A detached thread polls a flag under a lock, sleeping between polls, while main returns:
// the program ends under every fair schedule (the poller's sleeps are yields, so main gets
// its exit step), and no search may report a livelock.
#include <pthread.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int stop;
static void *poller(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&m);
    int s = stop;
    pthread_mutex_unlock(&m);
    if (s) break;
    usleep(1000);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, poller, 0);
  pthread_detach(t);
  return 0;
}
