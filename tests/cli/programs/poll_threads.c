// The main thread waits with poll, select and epoll_wait for pipes a thread writes: each
// wait must let the writer run (blocking in the kernel would hang the execution), and a
// select with no descriptors is a sleep.
#include <pthread.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

static int a[2], b[2], c[2];

static void* writer(void* arg) {
  (void)arg;
  if (write(a[1], "a", 1) != 1 || write(b[1], "b", 1) != 1 || write(c[1], "c", 1) != 1) return arg;
  return NULL;
}

int main(void) {
  if (pipe(a) != 0 || pipe(b) != 0 || pipe(c) != 0) return 2;
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  char x = 0, y = 0, z = 0;
  struct pollfd p = {a[0], POLLIN, 0};
  if (poll(&p, 1, -1) != 1 || read(a[0], &x, 1) != 1) return 3;
  fd_set r;
  FD_ZERO(&r);
  FD_SET(b[0], &r);
  if (select(b[0] + 1, &r, NULL, NULL, NULL) != 1 || read(b[0], &y, 1) != 1) return 4;
  const int ep = epoll_create1(0);
  struct epoll_event ev = {EPOLLIN, {0}}, out;
  if (epoll_ctl(ep, EPOLL_CTL_ADD, c[0], &ev) != 0) return 5;
  if (epoll_wait(ep, &out, 1, -1) != 1 || read(c[0], &z, 1) != 1) return 6;
  struct timeval pause = {0, 1000};
  select(0, NULL, NULL, NULL, &pause);
  pthread_join(t, NULL);
  return x == 'a' && y == 'b' && z == 'c' ? 0 : 1;
}
