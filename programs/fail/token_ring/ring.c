// A token ring: four stations take turns, each handing the token to the next for two
// rounds. All stations wait on one condition variable for their turn, and a station
// hands the token on with pthread_cond_signal, which wakes *one* waiter: when it wakes a
// station whose turn it is not, that station goes back to sleep and the one whose turn it
// is sleeps on, never told.
#include <pthread.h>
#include <stdio.h>

enum { STATIONS = 4, ROUNDS = 2 };

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t token_moved = PTHREAD_COND_INITIALIZER;
static int holder;  // the station that has the token
static int log_[STATIONS * ROUNDS];
static int log_len;

static void* station(void* arg) {
  const int id = (int)(long)arg;
  for (int round = 0; round < ROUNDS; ++round) {
    pthread_mutex_lock(&ring_lock);
    while (holder != id) pthread_cond_wait(&token_moved, &ring_lock);
    log_[log_len++] = id;
    holder = (id + 1) % STATIONS;
    pthread_cond_signal(&token_moved);
    pthread_mutex_unlock(&ring_lock);
  }
  return NULL;
}

int main(void) {
  pthread_t t[STATIONS];
  for (long i = 0; i < STATIONS; ++i) pthread_create(&t[i], NULL, station, (void*)i);
  for (int i = 0; i < STATIONS; ++i) pthread_join(t[i], NULL);
  for (int i = 0; i < log_len; ++i) printf("%d ", log_[i]);
  printf("\n");
  return 0;
}
