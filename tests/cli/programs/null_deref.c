// A null dereference reached under one interleaving.
#include <pthread.h>
#include <stdatomic.h>
static int value = 42;
static int* volatile ptr;
static atomic_int ready;
static void* publish(void* x) {
  atomic_store(&ready, 1);  // published before the pointer is set
  ptr = &value;
  return 0;
}
static void* use(void* x) {
  if (atomic_load(&ready)) return (void*)(long)*ptr;
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, publish, 0);
  pthread_create(&y, 0, use, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
