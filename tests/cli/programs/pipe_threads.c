// Two threads talk through a pipe. weft models the blocking read (it waits until the
// writer has written), so every schedule runs to its end. With argument "bug" the writer
// publishes its flag after the byte, and the reader can see the byte without the flag.
#include <pthread.h>
#include <string.h>
#include <unistd.h>
static int fds[2];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int sent, late, failed;
static void set_sent(void) {
  pthread_mutex_lock(&m);
  sent = 1;
  pthread_mutex_unlock(&m);
}
static void* writer(void* x) {
  if (!late) set_sent();
  write(fds[1], "x", 1);
  if (late) set_sent();
  return 0;
}
static void* reader(void* x) {
  char c;
  if (read(fds[0], &c, 1) != 1) failed = 1;
  pthread_mutex_lock(&m);
  if (!sent) failed = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char** argv) {
  late = argc > 1 && strcmp(argv[1], "bug") == 0;
  pipe(fds);
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return failed ? 5 : 0;
}
