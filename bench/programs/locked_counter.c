// n threads (argv[1], default 3) each add 1 to a counter k times (argv[2], default 2),
// each time under one mutex: correct, and (n*k)!/(k!)^n lock orders for a complete
// search to go through.
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter, k = 2;

static void* work(void* arg) {
  (void)arg;
  for (int i = 0; i < k; ++i) {
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  if (argc > 2) k = atoi(argv[2]);
  pthread_t t[16];
  if (n < 1 || n > 16) return 2;
  for (int i = 0; i < n; ++i) pthread_create(&t[i], 0, work, 0);
  for (int i = 0; i < n; ++i) pthread_join(t[i], 0);
  return counter == n * k ? 0 : 1;
}
