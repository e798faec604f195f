// A signal sent to another thread: its handler would run at a moment weft does not
// choose, so weft stops with a message rather than explore a lie.
#include <pthread.h>
#include <signal.h>
static volatile int hits;
static void on_signal(int sig) { hits++; }
static void* idle(void* x) { return 0; }
int main(void) {
  signal(SIGUSR1, on_signal);
  pthread_t t;
  pthread_create(&t, 0, idle, 0);
  pthread_kill(t, SIGUSR1);
  pthread_join(t, 0);
  return 0;
}
