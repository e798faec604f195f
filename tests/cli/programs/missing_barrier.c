// Numeric code whose bug shows only in its output: two workers each compute a partial sum,
// then each adds the other's. Without the barrier between the phases (argv[1] "bug") a
// worker may read the other's partial sum before it is written: the totals printed differ
// from the serial execution's, and nothing crashes. With it, every schedule prints the
// same. argv[2], when given, is a file the totals are written to instead of stdout.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static long partial[2], total[2];
static pthread_barrier_t barrier;
static int with_barrier = 1;

static void *worker(void *arg) {
  const long i = (long)arg;
  long sum = 0;
  for (long k = 1; k <= 100; ++k) sum += k * (i + 1);
  partial[i] = sum;
  if (with_barrier) pthread_barrier_wait(&barrier);
  total[i] = partial[i] + partial[1 - i];
  return 0;
}

int main(int argc, char **argv) {
  with_barrier = !(argc > 1 && strcmp(argv[1], "bug") == 0);
  pthread_barrier_init(&barrier, 0, 2);
  pthread_t t[2];
  for (long i = 0; i < 2; ++i) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 2; ++i) pthread_join(t[i], 0);
  FILE *out = argc > 2 ? fopen(argv[2], "w") : stdout;
  if (out == NULL) return 2;
  fprintf(out, "totals\n%ld\n%ld\n", total[0], total[1]);
  if (out != stdout) fclose(out);
  return 0;
}
