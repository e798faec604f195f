// One thread ends the process while another reaches a failing assertion: under some
// schedules the assertion comes first. argv[1] says how the process ends: exit, _exit,
// _Exit, quick_exit, abort or return (main returns while the thread runs, detached).
#undef NDEBUG  // the build type defines it: the assertion is the point
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char* how = "exit";

static void end_process(void) {
  if (strcmp(how, "_exit") == 0) _exit(0);
  if (strcmp(how, "_Exit") == 0) _Exit(0);
  if (strcmp(how, "quick_exit") == 0) quick_exit(0);
  if (strcmp(how, "abort") == 0) abort();
  exit(0);
}

static void* ender(void* arg) {
  (void)arg;
  end_process();
  return 0;
}

static void* failer(void* arg) {
  (void)arg;
  assert(0 && "reached before the process ended");
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1) how = argv[1];
  pthread_t a, b;
  pthread_create(&b, 0, failer, 0);
  if (strcmp(how, "return") == 0) {
    pthread_detach(b);
    return 0;
  }
  pthread_create(&a, 0, ender, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
