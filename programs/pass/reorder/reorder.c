// N threads share a status record of two words that must change together (a code and
// the detail that goes with it). N-1 workers report success by writing both words; one
// monitor reads them and checks that it sees a consistent pair. A mutex makes each
// pair of writes, and the pair of reads, one.
//
// usage: reorder N   (N >= 2 threads in all)
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { STATUS_PENDING = 0, STATUS_DONE = 1 };
enum { DETAIL_NONE = 0, DETAIL_OK = -1 };

static struct {
  pthread_mutex_t lock;
  int code;
  int detail;
} status = {PTHREAD_MUTEX_INITIALIZER, STATUS_PENDING, DETAIL_NONE};

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&status.lock);
  status.code = STATUS_DONE;
  status.detail = DETAIL_OK;
  pthread_mutex_unlock(&status.lock);
  return NULL;
}

static void* monitor(void* arg) {
  (void)arg;
  pthread_mutex_lock(&status.lock);
  int code = status.code;
  int detail = status.detail;
  pthread_mutex_unlock(&status.lock);
  assert((code == STATUS_PENDING && detail == DETAIL_NONE) ||
         (code == STATUS_DONE && detail == DETAIL_OK));
  return NULL;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  if (n < 2 || n > 64) {
    fprintf(stderr, "usage: %s N (2 <= N <= 64)\n", argv[0]);
    return 2;
  }
  pthread_t threads[64];
  for (int i = 0; i < n - 1; ++i) pthread_create(&threads[i], NULL, worker, NULL);
  pthread_create(&threads[n - 1], NULL, monitor, NULL);
  for (int i = 0; i < n; ++i) pthread_join(threads[i], NULL);
  return 0;
}
