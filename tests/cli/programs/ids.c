// Process and thread ids are the same in every execution: the worker count below comes
// from them, so a systematic search completes only if they do not change. Signals sent
// with those ids (kill, tgkill, syscall) still reach this process and its threads, and
// /proc/<getpid()>/ is this process's. With `print` as argument, the program prints its
// ids and fails, so that its output shows.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;
static atomic_int got_signal;
static pid_t worker_tid;

static void on_usr1(int sig) { (void)sig; atomic_fetch_add(&got_signal, 1); }

static void* work(void* x) {
  (void)x;
  pid_t tid = gettid();
  if (tid == getpid() || tid != (pid_t)syscall(SYS_gettid)) return (void*)1;
  pthread_mutex_lock(&m);
  n++;
  if (worker_tid == 0) worker_tid = tid;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(int argc, char** argv) {
  const pid_t pid = getpid();
  if (pid != (pid_t)syscall(SYS_getpid) || gettid() != pid) return 2;
  signal(SIGUSR1, on_usr1);
  if (kill(getpid(), SIGUSR1) != 0 || syscall(SYS_kill, getpid(), SIGUSR1) != 0) return 3;
  if (tgkill(getpid(), gettid(), SIGUSR1) != 0) return 4;
  if (atomic_load(&got_signal) != 3) return 5;
  char path[64], line[64] = "";
  snprintf(path, sizeof path, "/proc/%d/status", (int)getpid());
  FILE* f = fopen(path, "r");
  if (f == NULL || fgets(line, sizeof line, f) == NULL || strncmp(line, "Name:", 5) != 0) return 8;
  fclose(f);
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return 8;
  close(fd);
  const int workers = 2 + pid % 2;
  pthread_t t[3];
  void* bad = 0;
  for (int i = 0; i < workers; ++i) pthread_create(&t[i], 0, work, 0);
  for (int i = 0; i < workers; ++i) {
    void* r;
    pthread_join(t[i], &r);
    bad = bad ? bad : r;
  }
  if (bad || n != workers) return 6;
  if (argc > 1 && strcmp(argv[1], "print") == 0) {
    printf("pid %d, first worker %d\n", (int)pid, (int)worker_tid);
    return 7;
  }
  return 0;
}
