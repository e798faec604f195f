// A consumer polls a volatile flag, with no atomics and no lock, as C code often does (and
// any flag at -O0): its loop passes no synchronisation, so weft must make a scheduling
// point of it or the producer never runs. With "early" the producer raises the flag
// before it writes the data: the consumer can read it unset. With "counting" the consumer
// also counts its turns in a global, so its loop writes as well as reads.
#undef NDEBUG  // the assertion is the bug, in every build type
#include <assert.h>
#include <pthread.h>
#include <string.h>

volatile int ready;
int data;
static int early, counting;
long turns;

static void* produce(void* arg) {
  (void)arg;
  if (early) ready = 1;
  data = 42;
  ready = 1;
  return 0;
}

static void* consume(void* arg) {
  (void)arg;
  while (!ready) {
    if (counting) turns++;
  }
  assert(data == 42);
  return 0;
}

int main(int argc, char** argv) {
  early = argc > 1 && strcmp(argv[1], "early") == 0;
  counting = argc > 1 && strcmp(argv[1], "counting") == 0;
  pthread_t c, p;
  pthread_create(&c, 0, consume, 0);  // first: by default it spins before the producer runs
  pthread_create(&p, 0, produce, 0);
  pthread_join(c, 0);
  pthread_join(p, 0);
  return 0;
}
