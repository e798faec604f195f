// A thread blocks in a real system call that weft does not model (a read from a pipe
// nobody writes): reported as a hang, not a hung run.
#include <pthread.h>
#include <unistd.h>
static int fds[2];
static void* reader(void* x) {
  char c;
  return (void*)(long)read(fds[0], &c, 1);
}
int main(void) {
  pipe(fds);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  return 0;
}
