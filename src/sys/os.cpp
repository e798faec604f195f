#include "sys/os.hpp"

#include <dlfcn.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

namespace weft::os {
namespace {

// A raw system call: libc's syscall() is interposed by weft (futex modelling).
inline long raw_syscall6(long n, long a, long b, long c, long d, long e, long f) {
#if defined(__x86_64__)
  long ret;
  register long r10 asm("r10") = d;
  register long r8 asm("r8") = e;
  register long r9 asm("r9") = f;
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return ret;
#elif defined(__aarch64__)
  register long x8 asm("x8") = n;
  register long x0 asm("x0") = a;
  register long x1 asm("x1") = b;
  register long x2 asm("x2") = c;
  register long x3 asm("x3") = d;
  register long x4 asm("x4") = e;
  register long x5 asm("x5") = f;
  asm volatile("svc 0"
               : "+r"(x0)
               : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
               : "memory");
  return x0;
#else
#error "weft supports x86_64 and aarch64"
#endif
}

template <typename F>
F resolve(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
  return raw_syscall6(n, a, b, c, d, e, f);
}

namespace {
long futex_wait_op(const std::uint32_t* word, int op, std::uint32_t expected, long timeout_ns) {
  struct timespec ts;
  struct timespec* tp = nullptr;
  if (timeout_ns >= 0) {
    ts.tv_sec = timeout_ns / 1000000000;
    ts.tv_nsec = timeout_ns % 1000000000;
    tp = &ts;
  }
  return raw_syscall6(SYS_futex, reinterpret_cast<long>(word), op, static_cast<long>(expected),
                      reinterpret_cast<long>(tp), 0, 0);
}
}  // namespace

long futex_wait(const std::uint32_t* word, std::uint32_t expected, long timeout_ns) {
  return futex_wait_op(word, FUTEX_WAIT_PRIVATE, expected, timeout_ns);
}

long futex_wake(const std::uint32_t* word, int count) {
  return raw_syscall6(SYS_futex, reinterpret_cast<long>(word), FUTEX_WAKE_PRIVATE, count, 0, 0, 0);
}

long futex_wait_shared(const std::uint32_t* word, std::uint32_t expected, long timeout_ns) {
  return futex_wait_op(word, FUTEX_WAIT, expected, timeout_ns);
}

long futex_wake_shared(const std::uint32_t* word, int count) {
  return raw_syscall6(SYS_futex, reinterpret_cast<long>(word), FUTEX_WAKE, count, 0, 0, 0);
}

namespace {
// Resolved when weft is loaded, before the fork server forks: a lookup in every
// execution's child would cost its page faults in every execution.
using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, ThreadMain, void*);
using JoinFn = int (*)(pthread_t, void**);
CreateFn g_real_create = nullptr;
JoinFn g_real_join = nullptr;
__attribute__((constructor(101))) void resolve_thread_functions() {
  g_real_create = resolve<CreateFn>("pthread_create");
  g_real_join = resolve<JoinFn>("pthread_join");
}
}  // namespace

int create_thread(pthread_t* out, const pthread_attr_t* attr, ThreadMain fn, void* arg) {
  if (g_real_create == nullptr) resolve_thread_functions();
  return g_real_create(out, attr, fn, arg);
}

int join_thread(pthread_t t, void** ret) {
  if (g_real_join == nullptr) resolve_thread_functions();
  return g_real_join(t, ret);
}

std::uint64_t monotonic_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

pid_t gettid() { return static_cast<pid_t>(raw_syscall6(SYS_gettid, 0, 0, 0, 0, 0, 0)); }

void signal_thread(pid_t tid, int sig) { raw_syscall6(SYS_tgkill, getpid(), tid, sig, 0, 0, 0); }

pid_t getpid() { return static_cast<pid_t>(raw_syscall6(SYS_getpid, 0, 0, 0, 0, 0, 0)); }

bool any_ready(struct pollfd* fds, std::size_t n) {
  return raw_syscall6(SYS_poll, reinterpret_cast<long>(fds), static_cast<long>(n), 0, 0, 0, 0) > 0;
}

bool die_with_parent(pid_t parent) {
  raw_syscall6(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0, 0);
  return raw_syscall6(SYS_getppid, 0, 0, 0, 0, 0, 0) == parent;
}

void thread_stack(std::uintptr_t* lo, std::uintptr_t* hi) {
  static thread_local std::uintptr_t cached_lo = 0, cached_hi = 0;
  if (cached_hi == 0) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* base = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attr, &base, &size) == 0 && base != nullptr) {
        cached_lo = reinterpret_cast<std::uintptr_t>(base);
        cached_hi = cached_lo + size;
      }
      pthread_attr_destroy(&attr);
    }
  }
  *lo = cached_lo;
  *hi = cached_hi;
}

void signal_mask(int how, const sigset_t* set, sigset_t* old) {
  raw_syscall6(SYS_rt_sigprocmask, how, reinterpret_cast<long>(set), reinterpret_cast<long>(old),
               _NSIG / 8, 0, 0);
}

std::size_t address_space_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  return static_cast<std::size_t>(r.rlim_cur);
}

void* reserve_address_space(std::size_t want, std::size_t least, int flags, std::size_t* got) {
  least = std::min(least, want);
  for (std::size_t n = want;; n = std::max(n / 2, least)) {
    void* p =
        mmap(nullptr, n, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      *got = n;
      return p;
    }
    if (n <= least) break;
  }
  *got = 0;
  return nullptr;
}

std::string address_space_error(const char* what, std::size_t bytes, const char* remedy) {
  std::string out = "cannot reserve " + std::to_string((bytes + (1 << 20) - 1) >> 20) +
                    " MiB of address space for " + what;
  if (const std::size_t limit = address_space_limit(); limit != 0)
    return out + ": the address-space limit (ulimit -v) is " + std::to_string(limit >> 10) +
           " KiB; raise it (ulimit -v unlimited) " + remedy;
  return out + " (mmap failed: the machine's memory map or overcommit settings refused it); " +
         remedy;
}

}  // namespace weft::os
