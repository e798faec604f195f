// Starts a child process from a thread: outside what weft controls, said clearly.
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
static void* spawn(void* x) {
  pid_t p = fork();
  if (p == 0) _exit(0);
  waitpid(p, 0, 0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spawn, 0);
  pthread_join(t, 0);
  return 0;
}
