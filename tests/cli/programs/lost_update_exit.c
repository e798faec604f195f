// A lost update that shows as the exit status (built instrumented: plain accesses are
// scheduling points). Prints its input line first: every execution reads the same stdin.
#include <pthread.h>
#include <stdio.h>
static int counter;
static void* inc(void* x) {
  counter++;
  return 0;
}
int main(int argc, char** argv) {
  char line[64] = "";
  if (fgets(line, sizeof line, stdin)) printf("input: %s", line);
  printf("argc=%d\n", argc);
  pthread_t x, y;
  pthread_create(&x, 0, inc, 0);
  pthread_create(&y, 0, inc, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return counter == 2 ? 0 : 7;
}
