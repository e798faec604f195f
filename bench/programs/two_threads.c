// A small 2-thread C program for `make bench`: each thread takes a lock 5 times.
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;
static void* work(void* x) {
  for (int i = 0; i < 5; ++i) {
    pthread_mutex_lock(&m);
    n++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return n == 10 ? 0 : 1;
}
