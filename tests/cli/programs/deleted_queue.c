// A consumer takes an item from a queue that main deletes once it has put the item in,
// without waiting for the consumer: the consumer may take from a deleted queue (a use
// after free; when the take comes between main's last unlock and its free, a data race
// too). With argument "joined", main joins the consumer before deleting the queue; with
// "refcount", each holds a reference and the last to let go deletes it: the correct
// twins, which must never be reported.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct queue {
  pthread_mutex_t lock;
  int items[4];
  int head, tail;
  int refs;
};

static struct queue* queue_new(int refs) {
  struct queue* q = calloc(1, sizeof *q);
  pthread_mutex_init(&q->lock, 0);
  q->refs = refs;
  return q;
}

static void queue_put(struct queue* q, int v) {
  pthread_mutex_lock(&q->lock);
  q->items[q->tail++ % 4] = v;
  pthread_mutex_unlock(&q->lock);
}

static int queue_take(struct queue* q) {
  pthread_mutex_lock(&q->lock);
  const int v = q->head != q->tail ? q->items[q->head++ % 4] : -1;
  pthread_mutex_unlock(&q->lock);
  return v;
}

static void queue_delete(struct queue* q) {
  pthread_mutex_lock(&q->lock);  // whoever held it is done with it
  pthread_mutex_unlock(&q->lock);
  pthread_mutex_destroy(&q->lock);
  free(q);
}

// Drops a reference: the last one deletes the queue.
static void queue_release(struct queue* q) {
  pthread_mutex_lock(&q->lock);
  const int last = --q->refs == 0;
  pthread_mutex_unlock(&q->lock);
  if (last) {
    pthread_mutex_destroy(&q->lock);
    free(q);
  }
}

static int refcounted;
static int taken;

static void* consumer(void* arg) {
  struct queue* q = arg;
  taken = queue_take(q);
  if (refcounted) queue_release(q);
  return 0;
}

int main(int argc, char** argv) {
  const int joined = argc > 1 && strcmp(argv[1], "joined") == 0;
  refcounted = argc > 1 && strcmp(argv[1], "refcount") == 0;
  struct queue* q = queue_new(refcounted ? 2 : 1);
  pthread_t t;
  pthread_create(&t, 0, consumer, q);
  queue_put(q, 7);
  if (joined) pthread_join(t, 0);
  if (refcounted)
    queue_release(q);
  else
    queue_delete(q);
  if (!joined) pthread_join(t, 0);
  return 0;
}
