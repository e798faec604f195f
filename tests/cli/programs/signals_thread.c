// A signal sent to another thread: weft delivers it when that thread next runs, at one of
// its scheduling points, so its handler never runs beside the thread weft chose. The
// receiver waits for its handler; every schedule ends.
#include <pthread.h>
#include <sched.h>
#include <signal.h>
static volatile sig_atomic_t got;
static void on_signal(int sig) { got = 1; }
static void* receiver(void* x) {
  while (!got) sched_yield();
  return 0;
}
int main(void) {
  signal(SIGUSR1, on_signal);
  pthread_t t;
  pthread_create(&t, 0, receiver, 0);
  pthread_kill(t, SIGUSR1);
  pthread_join(t, 0);
  return got ? 0 : 6;
}
