// A worker writes a flag and ends; main, after joining another worker, reads the flag
// before it joins the first ("unjoined") or without ever joining it ("detached"). When
// main reads, it may be the only thread left, but the first worker's end does not happen
// before the read: the read races with the write, and the order where main reads first
// fails the assertion. dpor once took the last thread's accesses for no steps at all
// (nothing can interleave with them) and claimed every class explored after one
// execution. "joined", main joins both first: the correct twin.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <string.h>

static int flag;

static void* writer(void* arg) {
  flag = 1;
  return arg;
}

static void* idle(void* arg) { return arg; }

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "unjoined";
  pthread_t a, b;
  pthread_create(&a, NULL, writer, NULL);
  if (strcmp(how, "detached") == 0) pthread_detach(a);
  pthread_create(&b, NULL, idle, NULL);
  pthread_join(b, NULL);
  if (strcmp(how, "joined") == 0) pthread_join(a, NULL);
  assert(flag == 1);
  if (strcmp(how, "unjoined") == 0) pthread_join(a, NULL);
  return 0;
}
