// A thread spins on an atomic flag nobody sets. Instrumented, its loads are scheduling
// points and the spin is a livelock at the step bound; built without weft's wrappers it
// takes no step, and the hang says it computes (not that it is blocked).
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;  // not static: a compiler that sees no store could fold the loads away

static void *spin(void *arg) {
  (void)arg;
  while (!atomic_load(&flag)) {
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spin, 0);
  pthread_join(t, 0);
  return 0;
}
