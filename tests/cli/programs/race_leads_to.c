// A data race and what it leads to: two deposits update a balance without a lock (argv[1]
// "bug"); a lost update fails main's check. With the lock, no race and no failure.
#undef NDEBUG  // the check is the point, in every build type
#include <assert.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int locked = 1;
static int balance;

static void *deposit(void *arg) {
  (void)arg;
  if (locked) pthread_mutex_lock(&lock);
  int seen = balance;
  balance = seen + 10;
  if (locked) pthread_mutex_unlock(&lock);
  return 0;
}

int main(int argc, char **argv) {
  locked = !(argc > 1 && strcmp(argv[1], "bug") == 0);
  pthread_t a, b;
  pthread_create(&a, 0, deposit, 0);
  pthread_create(&b, 0, deposit, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance == 20);
  return 0;
}
