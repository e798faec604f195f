// Stalls in its first execution only, as a starved thread on a busy machine does: a thread
// blocks on a pipe nobody writes unless the file argv[1] exists, and creates it first. Run
// again, the same execution does not stall: weft must not report a hang.
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static const char *marker;

static void *worker(void *arg) {
  (void)arg;
  if (access(marker, F_OK) == 0) return 0;
  close(open(marker, O_CREAT | O_WRONLY, 0600));
  int fds[2];
  char c;
  pipe(fds);
  return (void *)(long)read(fds[0], &c, 1);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  marker = argv[1];
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
