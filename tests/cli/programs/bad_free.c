// Frees a worker's buffer wrongly. "double": the worker frees it, and main, after joining
// the worker, frees it again; "offset": the worker frees a pointer 8 bytes into it, which
// no allocation returned. With no argument, only the worker frees it, once: the correct
// twin, never reported.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char* buffer;
static int offset;

static void* worker(void* arg) {
  (void)arg;
  buffer[0] = 'w';
  free(buffer + offset);
  return 0;
}

int main(int argc, char** argv) {
  const int twice = argc > 1 && strcmp(argv[1], "double") == 0;
  offset = argc > 1 && strcmp(argv[1], "offset") == 0 ? 8 : 0;
  buffer = malloc(32);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (twice) free(buffer);
  return 0;
}
