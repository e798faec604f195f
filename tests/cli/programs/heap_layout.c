// Appends, from every execution, where the blocks it allocated before its threads started
// are (argv[1]). Those allocations do not depend on the schedule, so one run must write
// the same line every time: weft's own blocks (its search, kept in the same process) must
// not shift the program's heap from one execution to the next.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t* lock;
static int* counter;

static void* work(void* arg) {
  (void)arg;
  for (int i = 0; i < 2; ++i) {
    pthread_mutex_lock(lock);
    char* note = malloc(32 + *counter);  // the heap changes with the schedule from here
    ++*counter;
    free(note);
    pthread_mutex_unlock(lock);
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  lock = malloc(sizeof *lock);
  pthread_mutex_init(lock, NULL);
  counter = calloc(1, sizeof *counter);
  char* name = strdup(argv[1]);
  pthread_t threads[3];
  for (int i = 0; i < 3; ++i) pthread_create(&threads[i], NULL, work, NULL);
  for (int i = 0; i < 3; ++i) pthread_join(threads[i], NULL);
  char line[128];
  const int n = snprintf(line, sizeof line, "%p %p %p\n", (void*)lock, (void*)counter, (void*)name);
  const int fd = open(name, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0 || write(fd, line, n) != n) return 3;
  close(fd);
  return *counter == 6 ? 0 : 1;
}
