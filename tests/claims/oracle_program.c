// The claims oracle's programs: one binary, a small random multithreaded program per seed
// (argv[1]), interpreted, so that thousands of programs need one compile. Each thread runs
// a short list of operations drawn from the shapes real code has: lock-protected
// read-modify-writes, plain reads and writes, C11 atomics of every memory order (weft
// explores them as sequentially consistent), flags polled with a bound, a condition
// variable with its predicate, a semaphore, a reader-writer lock, a heap block freed by one
// thread and read by another (publish, use, free), threads created by threads and
// detached, early exits (exit, _exit, quick_exit, a thread returning from main first),
// assertions, and operations in a region run as if atomic (--no-preempt-in). main joins
// what it may join (in one program in four it runs operations of its own after joining
// some: the last thread left then still races with the ones it has not joined) and exits
// with a digest of the final state as its status (1-250):
// every outcome of a schedule is then a distinct weft "bug", and a complete search run
// with --keep-going lists every outcome the program can reach.
//
// `oracle_program SEED --describe` prints the program instead of running it.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum Kind {
  kRead, kWrite, kLockedAdd, kNestedLocks, kAtomicLoad, kAtomicStore, kAtomicAdd, kAtomicCas,
  kPollFlag, kCondSignal, kCondWait, kSemPost, kSemTryWait, kRwRead, kRwWrite, kPublish,
  kUseBlock, kFreeBlock, kSpawn, kCheck, kCheckAtomic, kExit, kKinds
};
static const char* const kNames[kKinds] = {
    "read x[a]", "write x[a] = b", "lock m[a]; x[b] += 1; unlock", "lock m[a]; lock m[b]; x[0] += 2; unlock both",
    "atomic load y[a] (order b)", "atomic store y[a] = 1 (order b)", "atomic fetch_add y[a] (order b)",
    "atomic cas y[a] 0 -> 2 (order b)", "poll y[a] != 0, at most 2 times, yielding", "lock c; ready = 1; signal; unlock",
    "lock c; while (!ready) wait; unlock", "sem_post s", "sem_trywait s", "rdlock rw; read x[a]; unlock",
    "wrlock rw; x[a] += 3; unlock", "block = malloc; block[4] = 5 + a (publish)", "read block, block[4] if not null",
    "free block (unpublish first)", "create a thread running the same ops (detached when b odd)",
    "assert(x[a] <= b % 2)", "assert(y[a] <= b % 2)", "end the process: exit/_exit/quick_exit by b"};

enum { kMaxThreads = 3, kMaxOps = 4 };
struct Op {
  int kind, a, b;
  int atomic;  // run in oracle_atomic_region: no preemption inside (--no-preempt-in)
};
// Lists 0 .. threads-1 are the threads'; list kMain is main's own, run after it joined
// the first main_after threads.
enum { kMain = kMaxThreads };
struct Program {
  int threads;
  int ops[kMaxThreads + 1];
  struct Op op[kMaxThreads + 1][kMaxOps];
  int main_after;
};

// A fixed generator: the same seed gives the same program on every machine.
static uint64_t rng_state;
static uint32_t next_rand(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}
static int pick(int n) { return (int)(next_rand() % (uint32_t)n); }

static void generate(uint64_t seed, struct Program* p) {
  rng_state = seed * 0x9e3779b97f4a7c15ull + 7;
  for (int i = 0; i < 4; ++i) next_rand();
  p->threads = pick(10) < 7 ? 2 : 3;
  // Common shapes weigh more; an exit or a spawn is rare (each at most once).
  static const int weights[kKinds] = {6, 6, 6, 2, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 3, 3, 2};
  int total = 0;
  for (int k = 0; k < kKinds; ++k) total += weights[k];
  // A palette of two or three kinds per program, drawn by weight, so that threads meet on the
  // same operations and objects (index 0 three times in four) often: conflicts are what
  // the claims are about. An exit or a spawn at most once.
  int palette[3];
  const int colours = 2 + pick(2);
  for (int i = 0; i < colours; ++i) {
    int r = pick(total), k = 0;
    while (r >= weights[k]) r -= weights[k++];
    palette[i] = k;
  }
  int spawned = 0, exited = 0;
  for (int t = 0; t < p->threads; ++t) {
    p->ops[t] = 1 + pick(2);
    for (int i = 0; i < p->ops[t]; ++i) {
      int k = palette[pick(colours)];
      if ((k == kSpawn && (spawned++ || t == 0)) || (k == kExit && exited++)) k = kRead;
      p->op[t][i] = (struct Op){k, pick(4) == 3, pick(4), 0};
    }
  }
  // Drawn last, so that a seed's operations stay what they were before regions existed.
  for (int t = 0; t < p->threads; ++t)
    for (int i = 0; i < p->ops[t]; ++i) p->op[t][i].atomic = pick(6) == 0;
  // main's own operations, from a generator of their own for the same reason.
  rng_state = seed * 0xd1b54a32d192ed03ull + 11;
  for (int i = 0; i < 4; ++i) next_rand();
  p->ops[kMain] = 0;
  if (pick(4) != 0) return;
  p->main_after = pick(p->threads);
  p->ops[kMain] = 1 + pick(2);
  for (int i = 0; i < p->ops[kMain]; ++i) {
    int k = palette[pick(colours)];
    if (k == kSpawn || (k == kExit && exited++)) k = kRead;
    p->op[kMain][i] = (struct Op){k, pick(4) == 3, pick(4), 0};
  }
}

// Shared state.
static int x[2];
static int y[2];
static pthread_mutex_t m[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static pthread_mutex_t c_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready;
static sem_t s;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
static int* block;
static int seen[kMaxThreads + 2];  // what each thread read, folded (the spawned one's, main's)
static struct Program program;
static pthread_t spawned_thread;
static int spawned_joinable;

static const int kOrders[4] = {__ATOMIC_RELAXED, __ATOMIC_ACQUIRE, __ATOMIC_RELEASE, __ATOMIC_SEQ_CST};
static int load_order(int b) { return b == 2 ? __ATOMIC_SEQ_CST : kOrders[b]; }
static int store_order(int b) { return b == 1 ? __ATOMIC_SEQ_CST : kOrders[b]; }

static int digest(void) {
  uint32_t h = 2166136261u;
  const int values[] = {x[0], x[1], y[0], y[1], ready, block != 0, seen[0], seen[1], seen[2], seen[3], seen[4]};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) h = (h ^ (uint32_t)values[i]) * 16777619u;
  return (int)(h % 250) + 1;
}

static void* run_thread(void* arg);

// One operation; returns what the thread has read so far, folded with `acc` (a value in a
// register: only the program's shared state is memory weft schedules).
static int perform(int t, struct Op op, int acc) {
  const struct Op* o = &op;
  int mine_value = acc;
  int* mine = &mine_value;
  switch (o->kind) {
    case kRead: *mine = *mine * 3 + x[o->a]; break;
    case kWrite: x[o->a] = o->b; break;
    case kLockedAdd:
      pthread_mutex_lock(&m[o->a]);
      x[o->b & 1] += 1;
      pthread_mutex_unlock(&m[o->a]);
      break;
    case kNestedLocks:
      pthread_mutex_lock(&m[o->a]);
      pthread_mutex_lock(&m[1 - o->a]);
      x[0] += 2;
      pthread_mutex_unlock(&m[1 - o->a]);
      pthread_mutex_unlock(&m[o->a]);
      break;
    case kAtomicLoad: *mine = *mine * 5 + __atomic_load_n(&y[o->a], load_order(o->b)); break;
    case kAtomicStore: __atomic_store_n(&y[o->a], 1, store_order(o->b)); break;
    case kAtomicAdd: *mine += __atomic_fetch_add(&y[o->a], 1, kOrders[o->b]); break;
    case kAtomicCas: {
      int expected = 0;
      *mine += __atomic_compare_exchange_n(&y[o->a], &expected, 2, 0, kOrders[o->b] == __ATOMIC_RELEASE ? __ATOMIC_SEQ_CST : kOrders[o->b], __ATOMIC_RELAXED) ? 7 : expected;
      break;
    }
    case kPollFlag:
      for (int i = 0; i < 2 && __atomic_load_n(&y[o->a], __ATOMIC_ACQUIRE) == 0; ++i) sched_yield();
      *mine = *mine * 2 + __atomic_load_n(&y[o->a], __ATOMIC_RELAXED);
      break;
    case kCondSignal:
      pthread_mutex_lock(&c_lock);
      ready = 1;
      pthread_cond_signal(&c);
      pthread_mutex_unlock(&c_lock);
      break;
    case kCondWait:
      pthread_mutex_lock(&c_lock);
      while (!ready) pthread_cond_wait(&c, &c_lock);
      pthread_mutex_unlock(&c_lock);
      break;
    case kSemPost: sem_post(&s); break;
    case kSemTryWait: *mine += sem_trywait(&s) == 0 ? 11 : 13; break;
    case kRwRead:
      pthread_rwlock_rdlock(&rw);
      *mine = *mine * 7 + x[o->a];
      pthread_rwlock_unlock(&rw);
      break;
    case kRwWrite:
      pthread_rwlock_wrlock(&rw);
      x[o->a] += 3;
      pthread_rwlock_unlock(&rw);
      break;
    case kPublish: {
      int* b = calloc(8, sizeof *b);
      b[4] = 5 + o->a;
      pthread_mutex_lock(&block_lock);
      int* old = block;
      block = b;
      pthread_mutex_unlock(&block_lock);
      free(old);
      break;
    }
    case kUseBlock: {
      pthread_mutex_lock(&block_lock);
      int* b = block;
      pthread_mutex_unlock(&block_lock);
      // Unordered with a free by another thread: the use the claims must cover. (Offset 16
      // and on: what glibc's free leaves as it was, so the value read is the schedule's.)
      if (b != 0) *mine += b[4];
      break;
    }
    case kFreeBlock: {
      pthread_mutex_lock(&block_lock);
      int* b = block;
      block = 0;
      pthread_mutex_unlock(&block_lock);
      free(b);
      break;
    }
    case kSpawn:
      if (pthread_create(&spawned_thread, 0, run_thread, (void*)(intptr_t)kMaxThreads) == 0) {
        if (o->b & 1) pthread_detach(spawned_thread);
        else __atomic_store_n(&spawned_joinable, 1, __ATOMIC_RELEASE);
      }
      break;
    case kCheck: assert(x[o->a] <= (o->b & 1)); break;
    case kCheckAtomic: assert(__atomic_load_n(&y[o->a], __ATOMIC_SEQ_CST) <= (o->b & 1)); break;
    case kExit:
      if (o->b == 0) exit(digest());
      if (o->b == 1) _exit(digest());
      if (o->b == 2) quick_exit(digest());
      break;  // 3: nothing (main's return ends the others)
  }
  return mine_value;
}

// The program's text is read without instrumentation: it is the same in every thread and
// never written, and its reads would be scheduling points under --preempt-on all.
#if defined(__clang__)
#define WEFT_NOT_INSTRUMENTED __attribute__((no_sanitize("thread")))
#else
#define WEFT_NOT_INSTRUMENTED __attribute__((no_sanitize_thread))
#endif
WEFT_NOT_INSTRUMENTED static int op_count(int list) { return program.ops[list]; }
WEFT_NOT_INSTRUMENTED static struct Op op_at(int list, int i) { return program.op[list][i]; }

// Code run as if atomic: the oracle gives every search --no-preempt-in
// 'oracle_atomic_region*' (a clone the compiler makes is named after it). A thread inside
// may still block (a lock, a wait), and others run then.
__attribute__((noinline)) int oracle_atomic_region(int t, struct Op op, int acc) {
  return perform(t, op, acc);
}

static void* run_thread(void* arg) {
  const int t = (int)(intptr_t)arg;
  const int list = t == kMaxThreads ? 0 : t;  // a spawned thread runs thread 0's ops
  int acc = 0;
  for (int i = 0, n = op_count(list); i < n; ++i) {
    const struct Op o = op_at(list, i);
    if (!(t == kMaxThreads && o.kind == kSpawn)) acc = o.atomic ? oracle_atomic_region(t, o, acc) : perform(t, o, acc);
  }
  seen[t] = acc;
  return 0;
}

// main's own bookkeeping, not instrumented either: only the threads' lives are steps.
static pthread_t threads[kMaxThreads];
WEFT_NOT_INSTRUMENTED static void start_threads(void) {
  for (int t = 0; t < program.threads; ++t)
    pthread_create(&threads[t], 0, run_thread, (void*)(intptr_t)t);
}
// main joins the first main_after threads, runs its own operations (instrumented, as the
// threads' are), and joins the rest.
static void run_main_ops(void) {
  int acc = 0;
  for (int i = 0, n = op_count(kMain); i < n; ++i) acc = perform(kMain, op_at(kMain, i), acc);
  seen[kMaxThreads + 1] = acc;
}
WEFT_NOT_INSTRUMENTED static void join_threads(void) {
  for (int t = 0; t < program.threads; ++t) {
    if (t == program.main_after && program.ops[kMain] > 0) run_main_ops();
    pthread_join(threads[t], 0);
  }
  if (__atomic_load_n(&spawned_joinable, __ATOMIC_ACQUIRE)) pthread_join(spawned_thread, 0);
}

static void describe(uint64_t seed) {
  printf("oracle program %llu: %d threads, main joins them and exits with a digest\n",
         (unsigned long long)seed, program.threads);
  for (int t = 0; t < program.threads; ++t)
    for (int i = 0; i < program.ops[t]; ++i)
      printf("  T%d op %d: %s (a=%d, b=%d)%s\n", t + 1, i, kNames[program.op[t][i].kind],
             program.op[t][i].a, program.op[t][i].b,
             program.op[t][i].atomic ? ", in oracle_atomic_region (no preemption inside)" : "");
  for (int i = 0; i < program.ops[kMain]; ++i)
    printf("  main, after joining %d thread(s), op %d: %s (a=%d, b=%d)\n", program.main_after, i,
           kNames[program.op[kMain][i].kind], program.op[kMain][i].a, program.op[kMain][i].b);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SEED [--describe]\n", argv[0]);
    return 255;
  }
  const uint64_t seed = strtoull(argv[1], 0, 10);
  generate(seed, &program);
  if (argc > 2 && strcmp(argv[2], "--describe") == 0) {
    describe(seed);
    return 0;
  }
  sem_init(&s, 0, (int)(seed & 1));
  start_threads();
  // A program whose first thread ends the process by returning: main does not wait.
  if (op_at(0, 0).kind == kExit && op_at(0, 0).b == 3) return digest();
  join_threads();
  return digest();
}
