// Correct: two threads increment under one mutex; exits 0 only if both increments count.
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;
static void* inc(void* x) {
  pthread_mutex_lock(&m);
  n++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, inc, 0);
  pthread_create(&y, 0, inc, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return n == 2 ? 0 : 3;
}
