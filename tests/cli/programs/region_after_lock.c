// A thread publishes under a lock, then, in code run as if atomic (--no-preempt-in
// check_published), takes the same lock again: no other thread can run between its
// unlock and the region. A reader that takes the lock before the publication fails its
// assertion. Partial-order reduction must reverse the reader's lock with the first lock,
// not only with the region's (which it cannot precede: the unlock and the region are one
// step for the others), or dpor claims complete and misses it. With argument "twin" the
// reader only reads: nothing to find.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int published, checked, twin;

void check_published(void) {
  pthread_mutex_lock(&m);
  checked = published;
  pthread_mutex_unlock(&m);
}

static void* publisher(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  published = 1;
  pthread_mutex_unlock(&m);
  check_published();
  return 0;
}

static void* reader(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  const int seen = published;
  pthread_mutex_unlock(&m);
  if (!twin) assert(seen == 1);
  return 0;
}

int main(int argc, char** argv) {
  twin = argc > 1 && strcmp(argv[1], "twin") == 0;
  pthread_t p, r;
  pthread_create(&p, 0, publisher, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(p, 0);
  pthread_join(r, 0);
  return checked == 1 ? 0 : 1;
}
