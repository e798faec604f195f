// `make bench`: weft's speed, as ratios measured in one run (these machines are shared
// and noisy: compare numbers from the same run only).
//
//   1. executions per second of the in-process explorer on a 2-thread test with 10
//      scheduling points per thread, next to the same test run natively (threads created
//      and joined, no weft);
//   2. the cost of an instrumented access that is not a scheduling point (a thread not
//      under test), next to a plain access;
//   3. the cost of data race detection: an execution of two threads doing many plain
//      accesses with detection on and off (plain accesses not scheduling points), and with
//      every access a scheduling point for comparison;
//   4. the cost of a heap allocation under test (noted in the allocation log that reports
//      name heap objects with), next to glibc's own and to an allocation outside a test;
//   5. the cost of an instrumented call under test (the shadow stack that reports name
//      lines and locals with), next to the same call outside a test.
#include <pthread.h>
#include <weft/weft.hpp>

extern "C" void* __libc_malloc(std::size_t n);
extern "C" void __libc_free(void* p);

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>

// Two threads, each adding a shared read-only table into its own array: 3 x 8192 plain
// accesses per thread, no race. External linkage: the stores cannot be dropped.
int g_table[1024];
int g_own[2][1024];

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<int> g_shared;

void* ten_points(void*) {
  for (int i = 0; i < 10; ++i) g_shared.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void two_threads() {
  pthread_t a, b;
  pthread_create(&a, nullptr, ten_points, nullptr);
  pthread_create(&b, nullptr, ten_points, nullptr);
  pthread_join(a, nullptr);
  pthread_join(b, nullptr);
}

// One long execution: two threads taking turns, to price a hand-off apart from the fixed
// cost of an execution (creating and reaping its threads).
void* many_points(void*) {
  for (int i = 0; i < 20000; ++i) g_shared.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void two_long_threads() {
  pthread_t a, b;
  pthread_create(&a, nullptr, many_points, nullptr);
  pthread_create(&b, nullptr, many_points, nullptr);
  pthread_join(a, nullptr);
  pthread_join(b, nullptr);
}

void* plain_work(void* arg) {
  int* own = g_own[reinterpret_cast<long>(arg)];
  for (int round = 0; round < 8; ++round)
    for (int i = 0; i < 1024; ++i) own[i] += g_table[i];
  return nullptr;
}

// A bigger footprint: each thread fills its own 2 MiB array and sums it twice (the
// detector's shadow then covers 4 MiB of the program's memory).
constexpr int kBigInts = 1 << 19;
int g_big[2][kBigInts];

void* big_work(void* arg) {
  int* own = g_big[reinterpret_cast<long>(arg)];
  for (int i = 0; i < kBigInts; ++i) own[i] = i;
  long sum = 0;
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < kBigInts; ++i) sum += own[i];
  own[0] = static_cast<int>(sum);
  return nullptr;
}

// Heap churn: each thread allocates, fills and frees 256 KiB blocks (freed memory's
// shadow must be forgotten, and used again).
void* churn_work(void* arg) {
  long sum = 0;
  for (int round = 0; round < 20; ++round) {
    auto* block = static_cast<unsigned char*>(std::malloc(256 << 10));
    for (int i = 0; i < (256 << 10); i += 64) block[i] = static_cast<unsigned char>(i);
    for (int i = 0; i < (256 << 10); i += 64) sum += block[i];
    std::free(block);
  }
  g_own[reinterpret_cast<long>(arg)][0] = static_cast<int>(sum);
  return nullptr;
}

void two_threads_running(void* (*work)(void*)) {
  pthread_t a, b;
  pthread_create(&a, nullptr, work, reinterpret_cast<void*>(0L));
  pthread_create(&b, nullptr, work, reinterpret_cast<void*>(1L));
  pthread_join(a, nullptr);
  pthread_join(b, nullptr);
}

// Microseconds per execution of two threads running `work` under these settings.
double plain_execution_us(weft::Races races, weft::PreemptOn preempt_on, std::uint64_t n,
                          void* (*work)(void*) = plain_work) {
  weft::Options o;
  o.strategy = "random";
  o.executions = n;
  o.seed = 1;
  o.races = races;
  o.preempt_on = preempt_on;
  weft::Result r = weft::explore([work] { two_threads_running(work); }, o);
  if (!r.ok()) {
    std::fprintf(stderr, "weft_bench: unexpected result:\n%s\n", r.report().c_str());
    std::exit(1);
  }
  return r.elapsed_s() * 1e6 / n;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int g_plain[64];  // external linkage and written in main: the loads cannot be folded

// Instrumented plain reads (this file is compiled with -fsanitize=thread); the main thread
// is not under test, so each read is weft's fast path.
__attribute__((noinline)) long read_loop(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += g_plain[i & 63];
  return sum;
}

// Allocation pairs; `direct` calls glibc's allocator itself, past weft's interposed malloc.
void* volatile g_block;
__attribute__((noinline)) void allocate_loop(long n, bool direct) {
  for (long i = 0; i < n; ++i) {
    g_block = direct ? __libc_malloc(48) : std::malloc(48);
    if (direct) {
      __libc_free(g_block);
    } else {
      std::free(g_block);
    }
  }
}

// Calls of an instrumented function (__tsan_func_entry and __tsan_func_exit around one
// plain read): under test, each pushes a frame on the thread's shadow stack.
__attribute__((noinline)) int callee(long i) { return g_plain[i & 63] + 1; }
__attribute__((noinline)) long call_loop(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i) sum += callee(i);
  return sum;
}
volatile long g_call_sum;

}  // namespace

// The same loop, uninstrumented, lives in bench/plain_loop.cpp.
long plain_read_loop(long n);

int main(int argc, char** argv) {
  const std::uint64_t executions = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20000;

  // Native: the same body, run directly (interposed calls pass straight through).
  auto t0 = Clock::now();
  for (std::uint64_t i = 0; i < executions; ++i) two_threads();
  const double native_s = seconds_since(t0);

  weft::Result r = weft::explore([] { two_threads(); },
                                 {.strategy = "random", .executions = executions, .seed = 1});
  if (!r.ok()) {
    std::fprintf(stderr, "weft_bench: unexpected result:\n%s\n", r.report().c_str());
    return 1;
  }
  const double weft_s = r.elapsed_s();
  // The same with every switch through the kernel (runtime/fiber.hpp: WEFT_FIBERS=0 is
  // read by each exploration's process).
  setenv("WEFT_FIBERS", "0", 1);
  weft::Result kernel_run = weft::explore([] { two_threads(); },
                                          {.strategy = "random", .executions = executions, .seed = 1});
  unsetenv("WEFT_FIBERS");
  const double kernel_s = kernel_run.elapsed_s();

  for (int i = 0; i < 64; ++i) g_plain[i] = i;
  // Where an execution's time goes: steps that switch threads vs. the fixed cost.
  // Fairness off: 20000 fetch_adds of one counter look like a spin to it, and its forced
  // switches would change what this line measures (the cost of a step).
  weft::Options long_options;
  long_options.strategy = "random";
  long_options.executions = 3;
  long_options.seed = 1;
  long_options.fair = false;
  weft::Result long_run = weft::explore([] { two_long_threads(); }, long_options);
  const double switch_us = long_run.elapsed_s() * 1e6 / (3 * 40000.0);
  setenv("WEFT_FIBERS", "0", 1);
  weft::Result long_kernel = weft::explore([] { two_long_threads(); }, long_options);
  unsetenv("WEFT_FIBERS");
  const double kernel_switch_us = long_kernel.elapsed_s() * 1e6 / (3 * 40000.0);
  weft::Result one_thread = weft::explore([] {}, {.strategy = "random", .executions = executions});
  const double empty_us = one_thread.elapsed_s() * 1e6 / executions;

  const long n = 200'000'000;
  t0 = Clock::now();
  volatile long sink = read_loop(n);
  const double instrumented_ns = seconds_since(t0) * 1e9 / n;
  t0 = Clock::now();
  sink = plain_read_loop(n);
  const double plain_ns = seconds_since(t0) * 1e9 / n;
  (void)sink;

  const std::uint64_t plain_n = 300;
  const double detect_off_us = plain_execution_us(weft::Races::kOff, weft::PreemptOn::kSync, plain_n);
  const double detect_on_us = plain_execution_us(weft::Races::kFail, weft::PreemptOn::kSync, plain_n);
  const double all_points_us = plain_execution_us(weft::Races::kOff, weft::PreemptOn::kAll, 10);
  using weft::PreemptOn;
  using weft::Races;
  const double big_off_us = plain_execution_us(Races::kOff, PreemptOn::kSync, 20, big_work);
  const double big_on_us = plain_execution_us(Races::kFail, PreemptOn::kSync, 20, big_work);
  const double churn_off_us = plain_execution_us(Races::kOff, PreemptOn::kSync, 20, churn_work);
  const double churn_on_us = plain_execution_us(Races::kFail, PreemptOn::kSync, 20, churn_work);

  const long allocations = 2'000'000;
  t0 = Clock::now();
  allocate_loop(allocations, true);
  const double glibc_ns = seconds_since(t0) * 1e9 / allocations;
  t0 = Clock::now();
  allocate_loop(allocations, false);
  const double outside_ns = seconds_since(t0) * 1e9 / allocations;
  weft::Result alloc_run = weft::explore([] { allocate_loop(allocations, false); },
                                         {.strategy = "random", .executions = 1, .seed = 1});
  const double under_test_ns = alloc_run.elapsed_s() * 1e9 / allocations;

  const long calls = 50'000'000;
  t0 = Clock::now();
  g_call_sum = call_loop(calls);
  const double call_outside_ns = seconds_since(t0) * 1e9 / calls;
  weft::Options call_options;
  call_options.strategy = "random";
  call_options.executions = 1;
  call_options.races = weft::Races::kOff;
  call_options.preempt_on = weft::PreemptOn::kSync;  // the read: no scheduling point
  weft::Result call_run = weft::explore([] { g_call_sum = call_loop(calls); }, call_options);
  const double call_under_test_ns = call_run.elapsed_s() * 1e9 / calls;

  std::printf("weft bench (one run; compare ratios, not absolute numbers)\n\n");
  std::printf("in-process explorer, 2 threads x 10 scheduling points, %llu executions:\n",
              static_cast<unsigned long long>(executions));
  std::printf("  native run (create+join, no weft) %10.0f executions/s  %8.1f us each\n",
              executions / native_s, native_s * 1e6 / executions);
  std::printf("  weft random walk                  %10.0f executions/s  %8.1f us each\n",
              executions / weft_s, weft_s * 1e6 / executions);
  std::printf("  ratio weft/native time            %10.2fx\n", weft_s / native_s);
  std::printf("  weft, switches through the kernel %10.0f executions/s  %8.1f us each (%.2fx)\n",
              executions / kernel_s, kernel_s * 1e6 / executions, kernel_s / weft_s);
  std::printf("  where the time goes:\n");
  std::printf("    one step (random walk: a thread switch every other step) %8.2f us\n",
              switch_us);
  std::printf("    ...with every switch through the kernel (WEFT_FIBERS=0)   %8.2f us (%.1fx)\n",
              kernel_switch_us, kernel_switch_us / switch_us);
  std::printf("    an execution of an empty body (one thread started/reaped) %7.2f us\n",
              empty_us);
  std::printf("\ninstrumented access off the schedule (thread not under test):\n");
  std::printf("  __tsan_read4 fast path            %10.2f ns/access\n", instrumented_ns);
  std::printf("  plain access                      %10.2f ns/access\n", plain_ns);
  std::printf("  overhead                          %10.2f ns/access\n", instrumented_ns - plain_ns);
  std::printf("\ndata race detection, 2 threads x 24576 plain accesses per execution:\n");
  std::printf("  detection off, accesses not points %9.1f us/execution\n", detect_off_us);
  std::printf("  detection on,  accesses not points %9.1f us/execution  (%.2fx; aim < 3x)\n",
              detect_on_us, detect_on_us / detect_off_us);
  std::printf("  every access a scheduling point    %9.1f us/execution  (%.2fx)\n", all_points_us,
              all_points_us / detect_off_us);
  std::printf("  2 threads x 2 MiB each, 3 x 2^19 accesses per thread:\n");
  std::printf("  detection off                      %9.1f us/execution\n", big_off_us);
  std::printf("  detection on                       %9.1f us/execution  (%.2fx)\n", big_on_us,
              big_on_us / big_off_us);
  std::printf("  2 threads x 20 x (malloc, fill, free 256 KiB):\n");
  std::printf("  detection off                      %9.1f us/execution\n", churn_off_us);
  std::printf("  detection on                       %9.1f us/execution  (%.2fx)\n", churn_on_us,
              churn_on_us / churn_off_us);
  std::printf("\nheap allocation (malloc + free of 48 bytes):\n");
  std::printf("  glibc directly                    %10.2f ns/pair\n", glibc_ns);
  std::printf("  through weft, outside a test      %10.2f ns/pair  (%.2fx)\n", outside_ns,
              outside_ns / glibc_ns);
  std::printf("  under test (noted for reports)    %10.2f ns/pair  (%.2fx)\n", under_test_ns,
              under_test_ns / glibc_ns);
  std::printf("\ninstrumented call (function entry and exit around one plain read):\n");
  std::printf("  outside a test                    %10.2f ns/call\n", call_outside_ns);
  std::printf("  under test (shadow stack)         %10.2f ns/call  (%.2fx)\n", call_under_test_ns,
              call_under_test_ns / call_outside_ns);
  return 0;
}
