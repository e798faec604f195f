// A program that replaces itself with /bin/true (argv[1]: execl, execlp, execle, execv,
// execvp, execvpe), from main or, with argv[2] "thread", from a thread: outside what weft
// controls, so a run stops with a tool error instead of claiming the program was explored.
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <unistd.h>

extern char** environ;
static const char* how = "execl";
static int shared;

static void replace(void) {
  char* argv[] = {"true", 0};
  if (strcmp(how, "execl") == 0) execl("/bin/true", "true", (char*)0);
  if (strcmp(how, "execlp") == 0) execlp("true", "true", (char*)0);
  if (strcmp(how, "execle") == 0) execle("/bin/true", "true", (char*)0, environ);
  if (strcmp(how, "execv") == 0) execv("/bin/true", argv);
  if (strcmp(how, "execvp") == 0) execvp("true", argv);
  if (strcmp(how, "execvpe") == 0) execvpe("true", argv, environ);
}

static void* worker(void* arg) {
  shared = 1;
  if (arg != 0) replace();
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1) how = argv[1];
  const int in_thread = argc > 2 && strcmp(argv[2], "thread") == 0;
  pthread_t t;
  pthread_create(&t, 0, worker, in_thread ? &shared : 0);
  pthread_join(t, 0);
  if (!in_thread) replace();
  return 3;  // exec failed
}
