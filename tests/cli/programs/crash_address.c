// Crashes whose report must give the faulting address (or, when the kernel gives none, the
// registers that hold the bad pointer), in a second thread:
//   garbage   follows a pointer read from memory filled with 0xab (as freed memory is)
//   unmapped  reads through address 0x10000
//   readonly  writes into a string literal
//   libc      memcpy into address 0x10000 (the fault is in libc; the report names this file)
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct node {
  struct node *next;
  long value;
};

static const char *mode;

static void *crash(void *arg) {
  (void)arg;
  if (strcmp(mode, "garbage") == 0) {
    struct node *volatile n = malloc(sizeof *n);
    memset(n, 0xab, sizeof *n);
    struct node *volatile next = n->next;
    return (void *)next->value;
  }
  if (strcmp(mode, "unmapped") == 0) return (void *)*(volatile long *)(long)0x10000;
  if (strcmp(mode, "libc") == 0) {
    static char from[4096];
    char *volatile to = (char *)(long)0x10000;
    memcpy(to, from, 100 + strlen(mode));  // a length the compiler does not know
    return 0;
  }
  *(volatile char *)"literal" = 'L';
  return 0;
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "garbage";
  pthread_t t;
  pthread_create(&t, 0, crash, 0);
  pthread_join(t, 0);
  return 0;
}
