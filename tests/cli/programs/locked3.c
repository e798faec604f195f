// Correct: three threads each add twice under one mutex; exits 0 only if all six adds count.
// Its schedule space is a few hundred executions: a budget of 20 covers part of it.
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;
static void* inc(void* x) { for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); n++; pthread_mutex_unlock(&m);} return 0; }
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, inc, 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  return n == 6 ? 0 : 3;
}
