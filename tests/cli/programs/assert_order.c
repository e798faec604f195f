// An assertion that fails under one interleaving: the reader takes the lock before the
// writer has set the value. weft replay --gdb stops in check_value, called by reader.
#undef NDEBUG  // the assertion is the bug, in every build type
#include <assert.h>
#include <pthread.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int value;
static void* writer(void* x) {
  pthread_mutex_lock(&lock);
  value = 42;
  pthread_mutex_unlock(&lock);
  return 0;
}
__attribute__((noinline)) static void check_value(int v) { assert(v == 42); }
static void* reader(void* x) {
  pthread_mutex_lock(&lock);
  int v = value;
  pthread_mutex_unlock(&lock);
  check_value(v);
  return 0;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
