#pragma once
// The few OS services the runtime itself needs, reached without going through weft's
// own interposed symbols (which would schedule the runtime against itself).
#include <poll.h>
#include <pthread.h>
#include <signal.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace weft::os {

// futex on a private word; `timeout_ns` < 0 waits forever. Returns the raw syscall result.
// A system call by the instruction itself: libc's syscall() may be interposed (weft
// models futexes and thread ids through it). Failures are negative errno values; errno is
// never written.
long raw_syscall(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0);

long futex_wait(const std::uint32_t* word, std::uint32_t expected, long timeout_ns = -1);
long futex_wake(const std::uint32_t* word, int count);
// The same on a word in memory that processes share (a MAP_SHARED file).
long futex_wait_shared(const std::uint32_t* word, std::uint32_t expected, long timeout_ns = -1);
long futex_wake_shared(const std::uint32_t* word, int count);

using ThreadMain = void* (*)(void*);
// Real pthread_create/join, whatever the program interposes.
int create_thread(pthread_t* out, const pthread_attr_t* attr, ThreadMain fn, void* arg);
int join_thread(pthread_t t, void** ret);

std::uint64_t monotonic_ns();
pid_t gettid();
pid_t getpid();
// Sends `sig` to kernel thread `tid` of this process (tgkill, past weft's interposed one).
void signal_thread(
    pid_t tid, int sig);  // the kernel's, past weft's interposed getpid (runtime/virtual_ids.hpp)
// The calling thread's signal mask, set straight through the kernel: never the program's
// interposed pthread_sigmask (which records the program's own mask).
void signal_mask(int how, const sigset_t* set, sigset_t* old);
// The calling thread's stack, [*lo, *hi) (0, 0: unknown). The main thread's is found by
// reading /proc/self/maps: a fork server asks once, before it forks, and its children
// find the answer cached.
void thread_stack(std::uintptr_t* lo, std::uintptr_t* hi);
// The process's address-space limit (RLIMIT_AS, `ulimit -v`) in bytes; 0 when unlimited.
std::size_t address_space_limit();
// `want` bytes of address space, read-write, never committed (MAP_NORESERVE; `flags`:
// MAP_PRIVATE or MAP_SHARED, anonymous): when that much cannot be mapped (an address-space
// limit), the largest of want / 2, want / 4, ... that can, down to `least`. *got: the size
// mapped. nullptr when not even `least` can be.
void* reserve_address_space(std::size_t want, std::size_t least, int flags, std::size_t* got);
// "cannot reserve N MiB of address space for `what`: ..." naming the limit that stopped
// it (ulimit -v), how to raise it, and `remedy` ("or lower --steps").
std::string address_space_error(const char* what, std::size_t bytes, const char* remedy);

// Whether any of `fds` is ready now (poll with no timeout), past weft's interposed poll.
bool any_ready(struct pollfd* fds, std::size_t n);
// In a child just forked by `parent`: it is sent SIGKILL when the thread that forked it
// ends (the parent dies, however it dies). False when `parent` is gone already, between
// the fork and this call: the child must end at once.
bool die_with_parent(pid_t parent);

}  // namespace weft::os
