// A bounded job queue (mutex + two condition variables) feeding two worker threads. A
// worker that finds the queue empty waits once, with `if`, and after waking takes a job
// without checking again: another worker can take the job between the signal and the
// wake-up, and the first one then dequeues from an empty queue.
#include <pthread.h>
#include <stdio.h>

enum { CAPACITY = 2 };

struct job {
  void (*run)(struct job*);
  int id;
};

struct queue {
  pthread_mutex_t lock;
  pthread_cond_t not_empty, not_full;
  struct job* slots[CAPACITY];
  int head, count;
};

static struct queue jobs = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                            PTHREAD_COND_INITIALIZER, {0}, 0, 0};

static void enqueue(struct queue* q, struct job* j) {
  pthread_mutex_lock(&q->lock);
  while (q->count == CAPACITY) pthread_cond_wait(&q->not_full, &q->lock);
  q->slots[(q->head + q->count) % CAPACITY] = j;
  q->count++;
  pthread_cond_signal(&q->not_empty);
  pthread_mutex_unlock(&q->lock);
}

static struct job* dequeue(struct queue* q) {
  pthread_mutex_lock(&q->lock);
  if (q->count == 0) pthread_cond_wait(&q->not_empty, &q->lock);
  struct job* j = q->slots[q->head];
  q->slots[q->head] = NULL;
  q->head = (q->head + 1) % CAPACITY;
  q->count--;
  pthread_cond_signal(&q->not_full);
  pthread_mutex_unlock(&q->lock);
  return j;
}

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static int jobs_done;

static void print_job(struct job* j) {
  pthread_mutex_lock(&done_lock);
  jobs_done++;
  pthread_mutex_unlock(&done_lock);
  printf("job %d\n", j->id);
}

static void* worker(void* arg) {
  (void)arg;
  struct job* j = dequeue(&jobs);
  j->run(j);
  return NULL;
}

int main(void) {
  struct job batch[2] = {{print_job, 1}, {print_job, 2}};
  pthread_t w1, w2;
  pthread_create(&w1, NULL, worker, NULL);
  pthread_create(&w2, NULL, worker, NULL);
  for (int i = 0; i < 2; ++i) enqueue(&jobs, &batch[i]);
  pthread_join(w1, NULL);
  pthread_join(w2, NULL);
  printf("%d jobs done\n", jobs_done);
  return jobs_done == 2 ? 0 : 1;
}
