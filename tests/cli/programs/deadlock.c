// Lock-order inversion: two threads, two mutexes.
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static void* ab(void* x) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}
static void* ba(void* x) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return 0;
}
int main(void) {
  pthread_t x, y;
  printf("deadlock: starting\n");
  pthread_create(&x, 0, ab, 0);
  pthread_create(&y, 0, ba, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
