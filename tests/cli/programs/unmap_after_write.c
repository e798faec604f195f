// A plain write into a mapping, then the mapping unmapped before the thread's next step:
// the report's value of that write is read before the memory goes, never after (which
// would be a crash the program does not have). Correct: no bug under any schedule.
#define _GNU_SOURCE  // mremap
#include <pthread.h>
#include <sys/mman.h>

static void* worker(void* arg) { return arg; }

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);  // another thread: main's accesses stay steps
  int* p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 2;
  p[0] = 42;  // a step (--preempt-on all): its value is read at the next one
  munmap(p, 4096);
  void* q = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (q == MAP_FAILED) return 2;
  ((int*)q)[1] = 7;
  q = mremap(q, 8192, 4096, MREMAP_MAYMOVE);
  ((int*)q)[0] = 1;
  munmap(q, 4096);
  pthread_join(t, 0);
  return 0;
}
