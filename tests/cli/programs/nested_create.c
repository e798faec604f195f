// Threads that create threads: a binary tree of depth 2 (7 threads) counting its nodes
// under a mutex. Two threads may be about to create at once; each child must get its own
// id, or the race detector confuses two threads and reports a race on the locked counter.
// With the argument "unlocked" the count is not locked: a real race.
#include <pthread.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int nodes, unlocked;

static void* node(void* arg) {
  const long depth = (long)arg;
  if (depth > 0) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, node, (void*)(depth - 1));
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
  }
  if (!unlocked) pthread_mutex_lock(&m);
  ++nodes;
  if (!unlocked) pthread_mutex_unlock(&m);
  return NULL;
}

int main(int argc, char** argv) {
  unlocked = argc > 1 && strcmp(argv[1], "unlocked") == 0;
  pthread_t root;
  pthread_create(&root, NULL, node, (void*)2L);
  pthread_join(root, NULL);
  return nodes == 7 ? 0 : 1;
}
