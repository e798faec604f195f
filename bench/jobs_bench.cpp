// weft run --jobs: the speed-up of executions per second from 1 to 2 workers on this
// machine, and, for complete systematic searches, that the workers together run what one
// runs (dfs and pb: the same executions; dpor: the same happens-before classes, its
// executions shown). Ratios within one run: these machines are shared and noisy.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "run_weft.hpp"

namespace {

struct Measure {
  nlohmann::json result;
  double seconds = 0;
  double rate() const {
    return seconds > 0 ? result.value("executions", 0.0) / seconds : 0;
  }
};

Measure measure(const std::string& args, int jobs) {
  const auto start = std::chrono::steady_clock::now();
  Measure m;
  m.result = weft::bench::run_weft(std::string(WEFT_BIN_DIR) + "/weft run -q --json - --jobs " +
                                   std::to_string(jobs) + " " + args);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

// Seconds for `procs` processes, in parallel, each forking and reaping `n` children: what
// a worker does per execution, without the program.
double fork_seconds(int procs, int n) {
  const auto start = std::chrono::steady_clock::now();
  for (int p = 0; p < procs; ++p)
    if (fork() == 0) {
      for (int i = 0; i < n; ++i) {
        const pid_t c = fork();
        if (c == 0) _exit(0);
        waitpid(c, nullptr, 0);
      }
      _exit(0);
    }
  while (wait(nullptr) > 0) {
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  const std::string bin = WEFT_BIN_DIR;
  const std::string counter = bin + "/bench_locked_counter";
  struct Case {
    const char* name;
    std::string args;
    bool complete;  // a complete systematic search: counts must agree
  };
  const Case cases[] = {
      {"random, 3000 executions", "-s random -n 3000 -- " + bin + "/bench_two_threads", false},
      {"pos, 3000 executions", "-s pos -n 3000 -- " + counter + " 3 2", false},
      {"dfs, complete (2x3 counter)", "-s dfs --no-state-cache -n 0 -- " + counter + " 2 3", true},
      {"pb:2, complete (3x2 counter)", "-s pb:2 --no-state-cache -n 0 -- " + counter + " 3 2", true},
      {"dpor, complete (3x3 counter)", "-s dpor -n 0 -- " + counter + " 3 3", true},
  };
  std::printf("weft run --jobs 1 vs --jobs 2 (wall clock; executions per second)\n\n");
  std::printf("  %-30s %11s %9s %9s %11s %9s %9s %8s\n", "case", "1: execs", "1: s", "1: /s",
              "2: execs", "2: s", "2: /s", "speed-up");
  bool ok = true;
  for (const Case& c : cases) {
    const Measure one = measure(c.args, 1), two = measure(c.args, 2);
    const auto e1 = one.result.value("executions", std::uint64_t{0});
    const auto e2 = two.result.value("executions", std::uint64_t{0});
    std::printf("  %-30s %11llu %9.2f %9.0f %11llu %9.2f %9.0f %7.2fx\n", c.name,
                static_cast<unsigned long long>(e1), one.seconds, one.rate(),
                static_cast<unsigned long long>(e2), two.seconds, two.rate(),
                one.rate() > 0 ? two.rate() / one.rate() : 0.0);
    if (!c.complete) continue;
    const bool both = one.result.value("complete", false) && two.result.value("complete", false);
    const std::string kind = one.result["coverage"].value("kind", "");
    const bool dpor = std::string(c.name).starts_with("dpor");
    const auto k1 = one.result["coverage"].value("classes", std::uint64_t{0});
    const auto k2 = two.result["coverage"].value("classes", std::uint64_t{0});
    const bool same = dpor ? k1 == k2 : e1 == e2;
    std::printf("  %-30s complete: %s; %s %llu vs %llu: %s\n", "", both ? "both" : "NO",
                dpor ? "happens-before classes" : "executions", static_cast<unsigned long long>(dpor ? k1 : e1),
                static_cast<unsigned long long>(dpor ? k2 : e2), same ? "equal" : "DIFFERENT");
    ok &= both && same;
    (void)kind;
  }
  // With state caching (the default), the workers prune less than one process does: what
  // counts for a user is the wall clock of the complete search.
  {
    const std::string args = "-s dfs -n 0 -- " + std::string(WEFT_SUITE_DIR) + "/pass/bank_transfer";
    const Measure one = measure(args, 1), two = measure(args, 2);
    const bool both = one.result.value("complete", false) && two.result.value("complete", false);
    std::printf("\n  dfs with state caching, complete (pass/bank_transfer): %llu executions in %.2f s\n"
                "  with 1 worker, %llu in %.2f s with 2 (complete: %s): wall clock %.2fx\n",
                static_cast<unsigned long long>(one.result.value("executions", std::uint64_t{0})),
                one.seconds,
                static_cast<unsigned long long>(two.result.value("executions", std::uint64_t{0})),
                two.seconds, both ? "both" : "NO", two.seconds > 0 ? one.seconds / two.seconds : 0.0);
    ok &= both;
  }
  // Each execution is a fork: whether this machine forks in parallel bounds the speed-up.
  const double f1 = fork_seconds(1, 2000), f2 = fork_seconds(2, 1000);
  std::printf("\n  fork + exit + wait, 2000 in one process: %.2f s; 2 x 1000 in two processes in\n"
              "  parallel: %.2f s (%.2fx): the ceiling on --jobs 2's speed-up here\n",
              f1, f2, f2 > 0 ? f1 / f2 : 0.0);
  std::printf("\n  (speed-up: the 2-worker rate over the 1-worker rate, one run; systematic\n"
              "   workers pass each other subtrees, explore/work_team.hpp)\n");
  return ok ? 0 : 1;
}
