// A worker updates a queue under its lock, then reads its count once more after the
// unlock, while main frees the queue after taking and dropping the same lock: nothing
// orders the read and the free (a data race; under some schedules a use after free).
// With argument "joined", main joins the worker before freeing: the correct twin, which
// must never be reported.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct queue {
  pthread_mutex_t lock;
  int count;
};

static struct queue* q;

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&q->lock);
  q->count++;
  pthread_mutex_unlock(&q->lock);
  assert(q->count == 1);  // after the unlock: nothing keeps main's free away
  return 0;
}

int main(int argc, char** argv) {
  const int joined = argc > 1 && strcmp(argv[1], "joined") == 0;
  q = malloc(sizeof *q);
  memset(q, 0, sizeof *q);
  pthread_mutex_init(&q->lock, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (joined) pthread_join(t, 0);
  pthread_mutex_lock(&q->lock);
  pthread_mutex_unlock(&q->lock);
  free(q);
  if (!joined) pthread_join(t, 0);
  return 0;
}
