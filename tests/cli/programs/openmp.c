// OpenMP programs, one case per argument (`openmp <case>`): each bug next to its correct
// twin (openmp_test.cpp). Small loops and weft's default team of 2 keep the search small.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4

static int a[N] = {1, 2, 3, 4};
static const long kTotal = 10;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "wrong: %s\n", what);
    abort();
  }
}

// --- a sum over a parallel for: the racy one and its fixed twins ---

static long racy_sum(void) {
  long sum = 0;
#pragma omp parallel for
  for (int i = 0; i < N; i++) sum += a[i];  // every thread adds to the shared sum: a race
  return sum;
}

static long reduction_sum(void) {
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; i++) sum += a[i];
  return sum;
}

// (schedule(dynamic): gcc's combined GOMP_parallel_loop_*, where the loop starts with the team)
static long atomic_sum(void) {
  long sum = 0;
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    sum += a[i];
  }
  return sum;
}

static long critical_sum(void) {
  long sum = 0;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < N; i++) {
#pragma omp critical
    sum += a[i];
  }
  return sum;
}

static long named_critical_sum(void) {
  long sum = 0;
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < N; i++) {
#pragma omp critical(total)
    sum += a[i];
  }
  return sum;
}

static long dynamic_sum(void) {
  long sum = 0;
  int seen[N] = {0};
#pragma omp parallel for schedule(dynamic) reduction(+ : sum)
  for (int i = 0; i < N; i++) {
    seen[i]++;  // each iteration runs once, on one thread
    sum += a[i];
  }
  for (int i = 0; i < N; i++) check(seen[i] == 1, "an iteration ran twice or never");
  return sum;
}

static long guided_runtime_sum(void) {
  long sum = 0;
#pragma omp parallel
  {
#pragma omp for schedule(guided) reduction(+ : sum)
    for (int i = 0; i < N; i++) sum += a[i];
#pragma omp for schedule(runtime) reduction(+ : sum)
    for (unsigned long long i = 0; i < N; i++) sum += a[i];
  }
  return sum / 2;
}

// --- phases separated by a barrier: each thread reads what the other wrote ---

static long phases(int with_barrier) {
  int slot[2] = {0, 0};
  long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
    const int me = omp_get_thread_num();
    slot[me] = me + 1;
    if (with_barrier) {
#pragma omp barrier
    }
    sum += slot[1 - me];  // without the barrier: read while the other writes
  }
  check(sum == 3, "a phase read a slot before it was written");
  return kTotal;
}

// --- omp locks: taken in opposite orders, a deadlock; in one order, correct ---

static long locks(int opposite) {
  omp_lock_t first, second;
  omp_nest_lock_t nest;
  omp_init_lock(&first);
  omp_init_lock(&second);
  omp_init_nest_lock(&nest);
  long sum = 0;
#pragma omp parallel num_threads(2)
  {
    const int me = omp_get_thread_num();
    omp_lock_t* x = opposite && me == 1 ? &second : &first;
    omp_lock_t* y = x == &first ? &second : &first;
    omp_set_lock(x);
    omp_set_lock(y);
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    sum += a[me];
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
    omp_unset_lock(y);
    omp_unset_lock(x);
    if (omp_test_lock(&first)) {
      sum += a[me + 2];
      omp_unset_lock(&first);
    } else {
      omp_set_lock(&first);
      sum += a[me + 2];
      omp_unset_lock(&first);
    }
  }
  omp_destroy_lock(&first);
  omp_destroy_lock(&second);
  omp_destroy_nest_lock(&nest);
  return sum;
}

// --- single, copyprivate, sections, master, tasks, ordered: each correct ---

static long constructs(void) {
  long sum = 0;
  int order[N], next = 0;
  int singles = 0, first_section = 0, second_section = 0, masters = 0, tasks = 0;
  int grid[2][2] = {{0, 0}, {0, 0}}, last = -1;
#pragma omp parallel
  {
    int mine;
#pragma omp single
    singles++;
#pragma omp single copyprivate(mine)
    mine = 7;
    check(mine == 7, "copyprivate did not reach every thread");
#pragma omp sections
    {
#pragma omp section
      first_section = 1;
#pragma omp section
      second_section = 10;
    }
#pragma omp master
    masters++;
#pragma omp barrier
#pragma omp single
    {
#pragma omp task
      tasks++;
#pragma omp task
      tasks++;
#pragma omp taskwait
      check(tasks == 2, "a task had not run at taskwait");
    }
#pragma omp for collapse(2) schedule(guided) nowait
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) grid[i][j] = i * 2 + j + 1;
#pragma omp for lastprivate(last) schedule(static, 1)
    for (int i = 0; i < N; i++) last = i;
#pragma omp for ordered schedule(dynamic) reduction(+ : sum)
    for (int i = 0; i < N; i++) {
      sum += a[i];
#pragma omp ordered
      order[next++] = i;
    }
  }
  check(singles == 1 && first_section + second_section == 11 && masters == 1, "a construct ran the wrong number of times");
  for (int i = 0; i < N; i++) check(order[i] == i, "ordered regions out of order");
  check(grid[0][0] + grid[0][1] + grid[1][0] + grid[1][1] == 10 && last == N - 1, "collapse or lastprivate");
  check(omp_in_parallel() == 0 && omp_get_num_threads() == 1, "outside a region");
  return sum;
}

// --- orphaned work-sharing: outside any region its one thread does it all ---

static void orphan(int* hits) {
#pragma omp for schedule(dynamic)
  for (int i = 0; i < N; i++) hits[i]++;
#pragma omp sections
  {
#pragma omp section
    hits[0] += 10;
#pragma omp section
    hits[1] += 10;
  }
}

static long orphaned(void) {
  int hits[N] = {0};
  orphan(hits);
#pragma omp parallel
  orphan(hits);
  for (int i = 0; i < N; i++) check(hits[i] == 2 + (i < 2 ? 20 : 0), "an orphaned construct");
  return kTotal;
}

// --- a construct weft does not support: a clear refusal, not a hang ---

static long unsupported(void) {
  int copy[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
  for (int i = 0; i < N; i++) copy[i] = a[i];
  long sum = 0;
  for (int i = 0; i < N; i++) sum += copy[i];
  return sum;
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  long sum;
  if (strcmp(which, "racy_sum") == 0) sum = racy_sum();
  else if (strcmp(which, "reduction_sum") == 0) sum = reduction_sum();
  else if (strcmp(which, "atomic_sum") == 0) sum = atomic_sum();
  else if (strcmp(which, "critical_sum") == 0) sum = critical_sum();
  else if (strcmp(which, "named_critical_sum") == 0) sum = named_critical_sum();
  else if (strcmp(which, "dynamic_sum") == 0) sum = dynamic_sum();
  else if (strcmp(which, "guided_runtime_sum") == 0) sum = guided_runtime_sum();
  else if (strcmp(which, "barrier") == 0) sum = phases(1);
  else if (strcmp(which, "missing_barrier") == 0) sum = phases(0);
  else if (strcmp(which, "lock_order") == 0) sum = locks(0);
  else if (strcmp(which, "lock_deadlock") == 0) sum = locks(1);
  else if (strcmp(which, "constructs") == 0) sum = constructs();
  else if (strcmp(which, "orphaned") == 0) sum = orphaned();
  else if (strcmp(which, "unsupported") == 0) sum = unsupported();
  else {
    fprintf(stderr, "usage: openmp <case>\n");
    return 2;
  }
  check(sum == kTotal, "wrong sum");
  printf("%ld\n", sum);
  return 0;
}
