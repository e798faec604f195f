// A spin lock made of an atomic flag: test-and-set makes the test and the set one
// indivisible step, so exactly one thread gets the lock.
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

typedef struct {
  atomic_flag locked;
} spinlock_t;

static void spin_lock(spinlock_t* l) {
  while (atomic_flag_test_and_set_explicit(&l->locked, memory_order_acquire)) sched_yield();
}

static void spin_unlock(spinlock_t* l) {
  atomic_flag_clear_explicit(&l->locked, memory_order_release);
}

static spinlock_t lock = {ATOMIC_FLAG_INIT};
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
