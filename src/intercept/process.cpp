// Child processes, threads made with clone() and signals sent to a thread are outside what
// weft controls: a controlled thread that starts or sends one ends the run with a clear
// message instead of a confused one (a hang, or an interleaving weft did not choose).
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "intercept/real.hpp"

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
WEFT_DEFINE_REAL(kill)

namespace {

constexpr const char* kChildren =
    "child processes are outside what weft controls (test the code that runs in one "
    "process)";

[[noreturn]] void outside(ThreadState* self, const char* what, const char* why = kChildren) {
  RuntimeScope scope(self);
  ctl().tool_error(std::string("the program calls ") + what + " in thread " +
                   std::to_string(self->id) + ": " + why);
}

}  // namespace

extern "C" {

pid_t fork() noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "fork()");
  return real_fork()();
}

int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "execve()");
  return real_execve()(path, argv, envp);
}

int execv(const char* path, char* const argv[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "execv()");
  return real_execv()(path, argv);
}

int execvp(const char* file, char* const argv[]) noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "execvp()");
  return real_execvp()(file, argv);
}

int system(const char* command) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "system()");
  return real_system()(command);
}

int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "posix_spawn()");
  return real_posix_spawn()(pid, path, actions, attr, argv, envp);
}

int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                 const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "posix_spawnp()");
  return real_posix_spawnp()(pid, file, actions, attr, argv, envp);
}

pid_t vfork() noexcept {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "vfork()");
  return real_vfork()();
}

FILE* popen(const char* command, const char* type) {
  if (ThreadState* self = rt::controlled_thread()) outside(self, "popen()");
  return real_popen()(command, type);
}

// glibc's pthread_create reaches the kernel without this symbol: only a program's own
// clone() comes here.
int clone(int (*fn)(void*), void* stack, int flags, void* arg, ...) {
  if (ThreadState* self = rt::controlled_thread())
    outside(self, "clone()",
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

// A signal sent to another thread runs its handler at a moment weft does not choose.
int pthread_kill(pthread_t thread, int sig) noexcept {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && sig != 0 &&
                                                   !pthread_equal(thread, pthread_self()))
    outside(self, "pthread_kill()",
            "a signal to another thread runs its handler at a moment weft does not "
            "choose; signal handlers that touch shared state are outside what weft controls");
  return real_pthread_kill()(thread, sig);
}

int kill(pid_t pid, int sig) noexcept {
  if (ThreadState* self = rt::controlled_thread();
      self != nullptr && sig != 0 && (pid == 0 || pid == getpid()))
    outside(self, "kill() on its own process",
            "a signal to the process runs its handler on a thread and at a moment weft "
            "does not choose; signal handlers that touch shared state are outside what "
            "weft controls");
  return real_kill()(pid, sig);
}

}  // extern "C"
