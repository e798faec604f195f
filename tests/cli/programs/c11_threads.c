// C11 threads: workers made with thrd_create add to a counter under an mtx_t, wait on a
// cnd_t for main's go-ahead, and call_once an initialiser. With the argument "unlocked"
// they add without the lock: a data race and a lost update.
#include <stdio.h>
#include <string.h>
#include <threads.h>

static mtx_t m;
static cnd_t go;
static once_flag once = ONCE_FLAG_INIT;
static int started, counter, inits, unlocked;

static void init(void) { ++inits; }

static int worker(void* arg) {
  (void)arg;
  call_once(&once, init);
  mtx_lock(&m);
  while (!started) cnd_wait(&go, &m);
  mtx_unlock(&m);
  for (int i = 0; i < 2; ++i) {
    if (!unlocked) mtx_lock(&m);
    const int seen = counter;
    counter = seen + 1;
    if (!unlocked) mtx_unlock(&m);
  }
  return 7;
}

int main(int argc, char** argv) {
  unlocked = argc > 1 && strcmp(argv[1], "unlocked") == 0;
  mtx_init(&m, mtx_plain);
  cnd_init(&go);
  thrd_t t[2];
  for (int i = 0; i < 2; ++i) thrd_create(&t[i], worker, NULL);
  mtx_lock(&m);
  started = 1;
  cnd_broadcast(&go);
  mtx_unlock(&m);
  int sum = 0;
  for (int i = 0; i < 2; ++i) {
    int r = 0;
    thrd_join(t[i], &r);
    sum += r;
  }
  if (counter != 4 || inits != 1 || sum != 14) {
    printf("counter %d, inits %d, results %d\n", counter, inits, sum);
    return 1;
  }
  return 0;
}
