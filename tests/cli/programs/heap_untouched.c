// Two blocks the program allocates, one before a thread runs and one after it ended, lie
// close together: between them only glibc's own small blocks for the thread (its TLS
// vector) may come from the program's heap, never weft's work for the thread (its kernel
// thread, a processor's 64 KiB stack).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static void* nothing(void* arg) { return arg; }

int main(void) {
  char* before = malloc(24);
  pthread_t t;
  pthread_create(&t, NULL, nothing, NULL);
  pthread_join(t, NULL);
  char* after = malloc(24);
  const intptr_t gap = (intptr_t)(after - before);
  free(after);
  free(before);
  return gap > 0 && gap < 4096 ? 0 : 1;
}
