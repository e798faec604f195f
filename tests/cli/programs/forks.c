// Starts a child process from a thread: outside what weft controls, said clearly. With an
// argument, the same through a raw system call (`raw-fork`, `raw-clone`), or a futex
// operation weft does not model (`requeue`): refused, never left uncontrolled.
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
static const char* how = "";
static uint32_t word, other;
static void* spawn(void* x) {
  if (strcmp(how, "requeue") == 0) {
    syscall(SYS_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, 1, &other, 0);  // RAW-REQUEUE
    return 0;
  }
  pid_t p = strcmp(how, "raw-fork") == 0    ? (pid_t)syscall(SYS_fork)
            : strcmp(how, "raw-clone") == 0 ? (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0)
                                            : fork();
  if (p == 0) _exit(0);
  waitpid(p, 0, 0);
  return 0;
}
int main(int argc, char** argv) {
  if (argc > 1) how = argv[1];
  pthread_t t;
  pthread_create(&t, 0, spawn, 0);
  pthread_join(t, 0);
  return 0;
}
