#pragma once
// The fork executor: one execution of a whole program, run in a child of the fork
// server. The child keeps the server's memory (copy-on-write), becomes the execution and
// returns into the program under a Controller; the server waits for it, watching for a
// hang, and reads what it left in shared memory. ServerSearch (server_search.hpp) decides
// which executions run.
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/expected_exit.hpp"
#include "core/run_record.hpp"
#include "core/strategy.hpp"
#include "detect/race_detector.hpp"
#include "explore/execution_child.hpp"
#include "explore/output_check.hpp"
#include "explore/point_log.hpp"
#include "explore/server_config.hpp"
#include "explore/shared_region.hpp"
#include "runtime/code_ranges.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

// What every execution's child inherits from the server.
struct ServerState {
  ServerConfig config;
  std::unique_ptr<SharedRegion> region;
  std::unique_ptr<PointLog> log;
  std::unique_ptr<Strategy> strategy;
  std::unique_ptr<ChildSink> sink;
  int stdin_fd = -1;   // the program's whole input (a memfd, read-only), fed to every execution
  int output_fd = -1;  // memfd capturing each execution's stdout and stderr
  std::unique_ptr<OutputCheck> output_check;  // --check-output (stdout apart then)
  detect::RaceDetector* races = nullptr;      // unused in the server; each child's own copy
  rt::CodeRanges no_preempt;        // the code --no-preempt-in names, found before any fork
  rt::RacyPoints racy;              // accesses known to race: scheduling points with kRacy
  std::vector<std::string> points;  // racy's code locations, for the schedules
  pid_t pid = 0;                    // the server's own (the kernel's, not a virtual one)
};

// A fresh slate in shared memory for execution `index` (0-based, in the whole search),
// then its child: the pid in the server, 0 in the child, -1 when fork failed.
pid_t fork_execution(ServerState& s, std::uint64_t index);
// In the child: become the execution and return into the program.
void become_execution(ServerState& s);
// Waits for execution `pid`, watching its progress (detect/hang_watch.hpp): a thread that
// takes no step for hang_timeout_s is a hang (the execution is killed and reported). At
// `deadline_ns` (monotonic; 0: none), the end of the run's time budget, the execution is
// killed unfinished and *stopped set. The wait status.
int wait_child(pid_t pid, SharedHeader& h, double hang_timeout_s, std::uint64_t deadline_ns = 0,
               bool* stopped = nullptr);
// What the execution just waited for printed: its stdout (when --check-output keeps it
// apart), then the rest.
std::string execution_output(const ServerState& s);
// Whether the execution just waited for failed: a bug it reported, a signal, or an exit
// status the program does not return by design (--expect-exit, default 0).
bool execution_failed(const SharedHeader& h, int status, const ExpectedExit& expected);
// The failure of the execution just waited for; an exit status nothing explained is the
// bug itself.
BugRecord read_failure(SharedRegion& region, int status, std::uint64_t fingerprint,
                       const std::string& strategy, std::uint64_t seed,
                       const std::vector<std::string>& points, const ExpectedExit& expected);

}  // namespace weft::explorer
