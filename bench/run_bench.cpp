// `make bench`, whole programs: executions per second of `weft run` (fork server) on a
// small 2-thread C program, next to starting the same program with posix_spawn, in one run;
// and the floor of any fork server here: forking a child that makes two threads and
// exits, with no weft at all; and the floor of an executor that restores a snapshot of the
// process instead of forking one (sys/process_snapshot.hpp, #30), with the same threads.
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sys/process_snapshot.hpp"

extern char** environ;

namespace {

void* nothing(void*) { return nullptr; }

// As weft's server and its children: on one cpu.
void pin_to_this_cpu() {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  sched_setaffinity(0, sizeof one, &one);
}

// fork + 2 threads + exit + wait, n times, on one cpu (as weft's server and its children).
double fork_floor_s(int n) {
  const pid_t pid = fork();
  if (pid == 0) {
    pin_to_this_cpu();
    for (int i = 0; i < n; ++i) {
      const pid_t child = fork();
      if (child == 0) {
        pthread_t t[2];
        for (pthread_t& x : t) pthread_create(&x, nullptr, nothing, nullptr);
        for (pthread_t& x : t) pthread_join(x, nullptr);
        _exit(0);
      }
      int status;
      waitpid(child, &status, 0);
    }
    _exit(0);
  }
  const auto t0 = std::chrono::steady_clock::now();
  int status;
  waitpid(pid, &status, 0);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int g_round = 0;  // excluded from the snapshot: outlives its restores

// 2 threads + join + restore of a snapshot taken before them, n times, on one cpu; 0 when
// the snapshot could not be taken or restored.
double restore_floor_s(int n, std::size_t* copied) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return 0;
  const pid_t pid = fork();
  if (pid == 0) {
    pin_to_this_cpu();
    auto* snap = new weft::os::ProcessSnapshot;
    snap->exclude(&g_round, sizeof g_round);
    if (getcontext(snap->context()) != 0) _exit(1);
    if (!snap->resumed() && !snap->take().empty()) _exit(1);
    pthread_t t[2];
    for (pthread_t& x : t) pthread_create(&x, nullptr, nothing, nullptr);
    for (pthread_t& x : t) pthread_join(x, nullptr);
    if (++g_round < n) {
      const std::string why = snap->restore();  // returns only when it cannot
      std::fprintf(stderr, "run_bench: cannot restore: %s\n", why.c_str());
      _exit(1);
    }
    const std::size_t bytes = snap->saved_bytes();
    if (write(pipe_fds[1], &bytes, sizeof bytes) != sizeof bytes) _exit(1);
    _exit(0);
  }
  close(pipe_fds[1]);
  const auto t0 = std::chrono::steady_clock::now();
  int status;
  waitpid(pid, &status, 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool ok = read(pipe_fds[0], copied, sizeof *copied) == sizeof *copied;
  close(pipe_fds[0]);
  return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? s : 0;
}

// `weft run ... --json -`'s elapsed_s; 0 when it failed.
double weft_seconds(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  std::string json;
  char buf[4096];
  std::size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) json.append(buf, got);
  if (pclose(p) != 0) {
    std::fprintf(stderr, "run_bench: weft run failed:\n%s\n", json.c_str());
    return 0;
  }
  const auto at = json.find("\"elapsed_s\":");
  return at == std::string::npos ? 0 : std::atof(json.c_str() + at + 12);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  const std::string bin = WEFT_BIN_DIR;
  const std::string program = bin + "/bench_two_threads";

  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    pid_t pid;
    char* args[] = {const_cast<char*>(program.c_str()), nullptr};
    if (posix_spawn(&pid, program.c_str(), nullptr, nullptr, args, environ) != 0) return 1;
    int status;
    waitpid(pid, &status, 0);
  }
  const double spawn_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const double floor_s = fork_floor_s(n);
  std::size_t copied = 0;
  const double restore_s = restore_floor_s(n, &copied);
  if (restore_s <= 0) return 1;

  const double weft_s = weft_seconds(bin + "/weft run --jobs 1 --quiet --json - -s random -n " +
                                     std::to_string(n) + " -- " + program);
  if (weft_s <= 0) return 1;

  std::printf("\nwhole programs, a 2-thread C program (5 lock/unlock per thread), %d executions:\n",
              n);
  std::printf("  posix_spawn + wait, no weft        %10.0f executions/s  %8.1f us each\n",
              n / spawn_s, spawn_s * 1e6 / n);
  std::printf("  weft run (fork server, random)     %10.0f executions/s  %8.1f us each\n",
              n / weft_s, weft_s * 1e6 / n);
  std::printf("  speed-up over spawning             %10.2fx\n", spawn_s / weft_s);
  std::printf(
      "  floor: fork + 2 threads + exit     %10.0f executions/s  %8.1f us each (no weft;\n"
      "         the best any fork server could do here: %.2fx over spawning)\n",
      n / floor_s, floor_s * 1e6 / n, spawn_s / floor_s);
  std::printf(
      "  floor: 2 threads + snapshot restore%10.0f executions/s  %8.1f us each (no weft;\n"
      "         %zu KiB copied back: %.2fx over the fork floor)\n",
      n / restore_s, restore_s * 1e6 / n, copied >> 10, floor_s / restore_s);

  // A long systematic search: the server's memory grows with it (the state cache), and
  // every fork copies its page tables; what an execution costs late in the search against
  // early on says how much.
  const std::string dfs = bin + "/weft run --jobs 1 --quiet --json - -s dfs -n ";
  const std::string counter = " -- " + bin + "/bench_locked_counter 4 3";
  const int early = 10000, late = 60000;
  const double early_s = weft_seconds(dfs + std::to_string(early) + counter);
  const double late_s = weft_seconds(dfs + std::to_string(late) + counter);
  if (early_s <= 0 || late_s <= 0) return 1;
  const double early_us = early_s * 1e6 / early,
               late_us = (late_s - early_s) * 1e6 / (late - early);
  std::printf(
      "\nwhole programs, a long dfs (4 threads x 3 locked increments):\n"
      "  executions 1-%d                %8.1f us each\n"
      "  executions %d-%d           %8.1f us each (%.2fx)\n",
      early, early_us, early + 1, late, late_us, late_us / early_us);
  return 0;
}
