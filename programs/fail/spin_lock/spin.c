// A spin lock made of a volatile flag: wait until the flag is clear, then set it. The
// test and the set are two separate accesses, so two threads can both see the flag clear
// and both enter the critical section. volatile makes each access happen, not the pair
// atomic.
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

typedef struct {
  volatile int locked;
} spinlock_t;

static void spin_lock(spinlock_t* l) {
  while (l->locked) sched_yield();
  l->locked = 1;
}

static void spin_unlock(spinlock_t* l) { l->locked = 0; }

static spinlock_t lock;
static int inside;  // threads inside the critical section
static long counter;

static void* worker(void* arg) {
  (void)arg;
  for (int i = 0; i < 2; ++i) {
    spin_lock(&lock);
    inside++;
    assert(inside == 1 && "mutual exclusion");
    counter++;
    inside--;
    spin_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter %ld\n", counter);
  return counter == 4 ? 0 : 1;
}
