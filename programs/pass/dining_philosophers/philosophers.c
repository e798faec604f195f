// Five philosophers around a table, a fork between each two. Forks are numbered and each
// philosopher picks up the lower-numbered of its two forks first: the last philosopher
// reaches for the same first fork as the first one, and no cycle of waiting can form.
#include <pthread.h>
#include <stdio.h>

enum { PHILOSOPHERS = 5, MEALS = 1 };

static pthread_mutex_t forks[PHILOSOPHERS];
static int meals_eaten[PHILOSOPHERS];

static void* philosopher(void* arg) {
  const int id = (int)(long)arg;
  const int a = id, b = (id + 1) % PHILOSOPHERS;
  pthread_mutex_t* first = &forks[a < b ? a : b];
  pthread_mutex_t* second = &forks[a < b ? b : a];
  for (int meal = 0; meal < MEALS; ++meal) {
    pthread_mutex_lock(first);
    pthread_mutex_lock(second);
    meals_eaten[id]++;
    pthread_mutex_unlock(second);
    pthread_mutex_unlock(first);
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
