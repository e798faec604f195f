// pthread_tryjoin_np. "once": main tries once and asserts the worker is still running;
// the order where the worker ends first fails it. The try reads the worker's end, so dpor
// reverses the two (it once took the try for a yield, independent of everything, and
// claimed one class). "poll": main polls until the join succeeds, then reads what the
// worker wrote: the join orders the two, no race, no bug (the poll was once no join at
// all for the race detector, which reported the read).
#define _GNU_SOURCE
#undef NDEBUG
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

static int x;

static void* worker(void* arg) {
  x = 1;
  return arg;
}

int main(int argc, char** argv) {
  const int poll = argc > 1 && strcmp(argv[1], "poll") == 0;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  if (poll) {
    while (pthread_tryjoin_np(t, NULL) == EBUSY) {
    }
    assert(x == 1);
    return 0;
  }
  const int r = pthread_tryjoin_np(t, NULL);
  assert(r == EBUSY);
  pthread_join(t, NULL);
  return 0;
}
