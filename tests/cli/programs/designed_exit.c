// A program whose exit status is its design (--expect-exit): two threads add to a counter
// under a lock, in two critical sections (a lost update under some schedules).
//   six     returns 6 in every execution
//   lost    exits 3 when an update was lost, else 0
//   assert  asserts no update was lost, else returns 6
#undef NDEBUG  // the check is the point, in every build type
#include <assert.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;
static int split;  // 1: read and write in two critical sections

static void *add(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int seen = counter;
  if (split) {
    pthread_mutex_unlock(&lock);
    pthread_mutex_lock(&lock);
  }
  counter = seen + 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "six";
  split = strcmp(mode, "six") != 0;
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (strcmp(mode, "lost") == 0) return counter == 2 ? 0 : 3;
  if (strcmp(mode, "assert") == 0) assert(counter == 2);
  return 6;
}
