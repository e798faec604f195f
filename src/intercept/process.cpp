// Child processes are outside what weft controls: a controlled thread that forks or
// executes another program ends the run with a clear message instead of a confused one.
#include <spawn.h>
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

namespace {

[[noreturn]] void outside(ThreadState* self, const char* what) {
  RuntimeScope scope(self);
  ctl().tool_error(std::string("the program calls ") + what + " in thread " +
                   std::to_string(self->id) +
                   ": child processes are outside what weft controls (test the code that "
                   "runs in one process)");
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

}  // extern "C"
