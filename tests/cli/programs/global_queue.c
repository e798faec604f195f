// A heap block named by the global pointer that holds it: main makes a queue before the
// threads, and two workers count into it without a lock (a race on q->count).
#include <pthread.h>
#include <stdlib.h>

struct queue {
  long id;
  int count;
  int items[4];
};

struct queue* q;

static void* worker(void* arg) {
  (void)arg;
  q->count++;
  return 0;
}

int main(void) {
  q = calloc(1, sizeof *q);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return q->count == 2 ? 0 : 1;
}
