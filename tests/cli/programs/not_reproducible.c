// A program whose executions depend on something outside the schedule: a counter in a file
// (argv[1]) it bumps each run. Odd runs start a third thread, even runs do not, so the
// same schedule prefix does not lead to the same choices: weft must say so precisely and
// claim no coverage.
#include <pthread.h>
#include <stdio.h>

static int shared;

static void* work(void* arg) {
  (void)arg;
  __atomic_fetch_add(&shared, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  int runs = 0;
  FILE* f = fopen(argv[1], "r");
  if (f != NULL) {
    if (fscanf(f, "%d", &runs) != 1) runs = 0;
    fclose(f);
  }
  f = fopen(argv[1], "w");
  if (f == NULL) return 2;
  fprintf(f, "%d\n", runs + 1);
  fclose(f);
  pthread_t t[3];
  const int n = runs % 2 ? 3 : 2;
  for (int i = 0; i < n; ++i) pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < n; ++i) pthread_join(t[i], NULL);
  return 0;
}
