// Five philosophers around a table, a fork between each two. Each picks up the fork on
// the left, then the one on the right: when all five hold their left fork, each waits for
// a right fork that its neighbour holds, for ever.
#include <pthread.h>
#include <stdio.h>

enum { PHILOSOPHERS = 5, MEALS = 1 };

static pthread_mutex_t forks[PHILOSOPHERS];
static int meals_eaten[PHILOSOPHERS];

static void* philosopher(void* arg) {
  const int id = (int)(long)arg;
  pthread_mutex_t* left = &forks[id];
  pthread_mutex_t* right = &forks[(id + 1) % PHILOSOPHERS];
  for (int meal = 0; meal < MEALS; ++meal) {
    pthread_mutex_lock(left);
    pthread_mutex_lock(right);
    meals_eaten[id]++;
    pthread_mutex_unlock(right);
    pthread_mutex_unlock(left);
  }
  return NULL;
}

int main(void) {
  pthread_t t[PHILOSOPHERS];
  for (int i = 0; i < PHILOSOPHERS; ++i) pthread_mutex_init(&forks[i], NULL);
  for (long i = 0; i < PHILOSOPHERS; ++i) pthread_create(&t[i], NULL, philosopher, (void*)i);
  for (int i = 0; i < PHILOSOPHERS; ++i) pthread_join(t[i], NULL);
  for (int i = 0; i < PHILOSOPHERS; ++i) printf("philosopher %d ate %d\n", i, meals_eaten[i]);
  return 0;
}
