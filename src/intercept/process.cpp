// Child processes and threads made with clone() are outside what weft controls: a
// controlled thread that starts one ends the run with a clear message instead of a
// confused one (a hang, or an interleaving weft did not choose). Signals are kept inside
// the schedule (runtime/signals.hpp). Process and thread ids are virtual in an execution
// (runtime/virtual_ids.hpp): the same in every one.
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <string>

#include "intercept/real.hpp"
#include "runtime/signals.hpp"
#include "runtime/virtual_ids.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(fork)
WEFT_DEFINE_REAL(execve)
WEFT_DEFINE_REAL(execv)
WEFT_DEFINE_REAL(execvp)
WEFT_DEFINE_REAL(system)
WEFT_DEFINE_REAL(posix_spawn)
WEFT_DEFINE_REAL(posix_spawnp)
WEFT_DEFINE_REAL(vfork)
WEFT_DEFINE_REAL(popen)
WEFT_DEFINE_REAL(pthread_kill)
WEFT_DEFINE_REAL(sigaction)
WEFT_DEFINE_REAL(signal)
WEFT_DEFINE_REAL(pthread_sigmask)
WEFT_DEFINE_REAL(sigprocmask)
WEFT_DEFINE_REAL(prctl)
WEFT_DEFINE_REAL(kill)
WEFT_DEFINE_REAL(sigqueue)
WEFT_DEFINE_REAL(tgkill)
WEFT_DEFINE_REAL(_exit)
WEFT_DEFINE_REAL(_Exit)
WEFT_DEFINE_REAL(quick_exit)
WEFT_DEFINE_REAL(abort)
WEFT_DEFINE_REAL(execvpe)
WEFT_DEFINE_REAL(fexecve)

namespace {

constexpr const char* kChildren =
    "child processes are outside what weft controls (test the code that runs in one "
    "process)";

[[noreturn]] void outside(ThreadState* self, std::uintptr_t pc, const char* what,
                          const char* why = kChildren) {
  outside_control(self, pc, what, why);
}

// A signal mask is its kernel thread's: the thread runs only there from now on.
void mask_changing(const sigset_t* set) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && set != nullptr) {
    RuntimeScope scope(self);
    ctl().pin(self);
  }
}

// The program's mask, as weft keeps it; its carrier restores the mask before its next thread.
void mask_set(ThreadState* self) {
  real_pthread_sigmask()(SIG_SETMASK, nullptr, &self->program_mask);
  if (self->carrier != nullptr) self->carrier->mask_changed = true;
}

// The process ends here, however it ends: a step that conflicts with every other thread's
// next one (strategy/dependence.hpp), so that a search also runs them before it. exit()
// and a return from main take this step in the fork server's last atexit handler.
void process_ending(std::uintptr_t pc) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().schedule(self, make_op(OpKind::ProcessExit, 0, pc));
    ctl().note_unfinished(self->id);
  }
}

// execl and its kin: a controlled thread stops the run; otherwise their argument list
// (and execle's environment after it) becomes the argv `run` execs with.
template <typename Run>
int exec_list(const char* what, std::uintptr_t pc, const char* arg, va_list ap, bool takes_env,
              Run run) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, pc, what);
  const char* argv[4096];
  std::size_t n = 0;
  for (const char* a = arg;; a = va_arg(ap, const char*)) {
    if (n + 1 == sizeof argv / sizeof argv[0]) return errno = E2BIG, -1;
    argv[n++] = a;
    if (a == nullptr) break;
  }
  char* const* envp = takes_env ? va_arg(ap, char* const*) : nullptr;
  return run(const_cast<char* const*>(argv), envp);
}

}  // namespace

extern "C" {

void _exit(int status) {
  process_ending(WEFT_PC);
  real__exit()(status);
  __builtin_unreachable();
}

void _Exit(int status) noexcept {
  process_ending(WEFT_PC);
  real__Exit()(status);
  __builtin_unreachable();
}

void quick_exit(int status) noexcept {
  process_ending(WEFT_PC);
  real_quick_exit()(status);
  __builtin_unreachable();
}

void abort() noexcept {
  process_ending(WEFT_PC);
  real_abort()();
  __builtin_unreachable();
}

pid_t fork() noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "fork()");
  return real_fork()();
}

int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "execve()");
  return real_execve()(path, argv, envp);
}

int execv(const char* path, char* const argv[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "execv()");
  return real_execv()(path, argv);
}

int execvp(const char* file, char* const argv[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "execvp()");
  return real_execvp()(file, argv);
}

int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "execvpe()");
  return real_execvpe()(file, argv, envp);
}

int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "fexecve()");
  return real_fexecve()(fd, argv, envp);
}

// glibc's execl, execlp and execle reach execve inside libc, past weft's symbol.
int execl(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  const int rc =
      exec_list("execl()", WEFT_PC, arg, ap, false,
                [&](char* const* argv, char* const*) { return real_execv()(path, argv); });
  va_end(ap);
  return rc;
}

int execlp(const char* file, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  const int rc =
      exec_list("execlp()", WEFT_PC, arg, ap, false,
                [&](char* const* argv, char* const*) { return real_execvp()(file, argv); });
  va_end(ap);
  return rc;
}

int execle(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  const int rc = exec_list(
      "execle()", WEFT_PC, arg, ap, true,
      [&](char* const* argv, char* const* envp) { return real_execve()(path, argv, envp); });
  va_end(ap);
  return rc;
}

int system(const char* command) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "system()");
  return real_system()(command);
}

int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "posix_spawn()");
  return real_posix_spawn()(pid, path, actions, attr, argv, envp);
}

int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                 const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "posix_spawnp()");
  return real_posix_spawnp()(pid, file, actions, attr, argv, envp);
}

pid_t vfork() noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "vfork()");
  return real_vfork()();
}

FILE* popen(const char* command, const char* type) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, WEFT_PC, "popen()");
  return real_popen()(command, type);
}

// glibc's pthread_create reaches the kernel without this symbol: only a program's own
// clone() comes here.
int clone(int (*fn)(void*), void* stack, int flags, void* arg, ...) {
  if (ThreadState* self = rt::controlled_thread())
    outside(self, WEFT_PC, "clone()",
            "threads made with clone() rather than pthread_create or std::thread are "
            "outside what weft controls");
  va_list ap;
  va_start(ap, arg);
  pid_t* parent_tid = va_arg(ap, pid_t*);
  void* tls = va_arg(ap, void*);
  pid_t* child_tid = va_arg(ap, pid_t*);
  va_end(ap);
  using Clone = int (*)(int (*)(void*), void*, int, void*, ...);
  static const auto real = reinterpret_cast<Clone>(dlsym(RTLD_NEXT, "clone"));
  return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
}

// Signals: a handler runs on the thread holding the baton, at a scheduling point
// (runtime/signals.hpp). Dispositions are watched to know when that discipline is needed;
// masks are the program's own, restored whenever its thread runs.
int sigaction(int sig, const struct sigaction* act, struct sigaction* old) noexcept {
  const int rc = real_sigaction()(sig, act, old);
  if (rc == 0 && act != nullptr)
    rt::signals::note_disposition(sig, act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN);
  return rc;
}

sighandler_t signal(int sig, sighandler_t handler) noexcept {
  const sighandler_t old = real_signal()(sig, handler);
  if (old != SIG_ERR) rt::signals::note_disposition(sig, handler != SIG_DFL && handler != SIG_IGN);
  return old;
}

int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) noexcept {
  mask_changing(set);
  const int rc = real_pthread_sigmask()(how, set, old);
  if (ThreadState* self = rt::controlled_thread()) mask_set(self);
  return rc;
}

int sigprocmask(int how, const sigset_t* set, sigset_t* old) noexcept {
  mask_changing(set);
  const int rc = real_sigprocmask()(how, set, old);
  if (ThreadState* self = rt::controlled_thread()) mask_set(self);
  return rc;
}

// Most of what prctl sets is the calling kernel thread's (its name, seccomp, timer slack):
// the thread runs only there from then on. PR_SET_NAME is news too: the carrier gives its
// next thread its own name back.
int prctl(int option, ...) noexcept {
  va_list args;
  va_start(args, option);
  unsigned long a[4];
  for (unsigned long& v : a) v = va_arg(args, unsigned long);
  va_end(args);
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && option != PR_GET_NAME) {
    RuntimeScope scope(self);
    ctl().pin(self);
  }
  const int rc = real_prctl()(option, a[0], a[1], a[2], a[3]);
  if (option == PR_SET_NAME)
    if (ThreadState* self = rt::controlled_thread(); self != nullptr && self->carrier != nullptr)
      self->carrier->renamed = true;
  return rc;
}

pid_t getpid() noexcept { return rt::VirtualIds::pid(); }

pid_t gettid() noexcept { return rt::VirtualIds::tid(); }

int kill(pid_t pid, int sig) noexcept { return real_kill()(rt::VirtualIds::real_pid(pid), sig); }

int sigqueue(pid_t pid, int sig, const union sigval value) noexcept {
  return real_sigqueue()(rt::VirtualIds::real_pid(pid), sig, value);
}

int tgkill(pid_t tgid, pid_t tid, int sig) {  // glibc declares it without __THROW
  return real_tgkill()(rt::VirtualIds::real_pid(tgid), rt::VirtualIds::real_tid(tid), sig);
}

// A signal to a controlled thread that has finished: its carrier may already run another
// thread of the execution, which must not get it (glibc sends nothing to a thread that
// has exited, either).
int pthread_kill(pthread_t thread, int sig) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ThreadState* target = ctl().find_thread(thread);
    if (target != nullptr && target->finished) return 0;
  }
  return real_pthread_kill()(thread, sig);
}

}  // extern "C"
