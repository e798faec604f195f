// main leaves with pthread_exit while its workers still run: the process ends, with
// status 0, when the last of them does.
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int done;
static void* work(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  ++done;
  pthread_mutex_unlock(&lock);
  return NULL;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, work, NULL);
  pthread_create(&b, NULL, work, NULL);
  pthread_detach(a);
  pthread_detach(b);
  pthread_exit(NULL);
}
