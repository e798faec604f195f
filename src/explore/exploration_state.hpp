#pragma once
// What an exploration keeps between its executions (exploration.hpp): the options, the
// strategy, the scheduling points, the shared region executions leave their trace in.
// The fork executor's children inherit all of it; the in-process executor uses it in place.
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "core/strategy.hpp"
#include "detect/race_detector.hpp"
#include "explore/execution_child.hpp"
#include "explore/exploration_config.hpp"
#include "explore/output_check.hpp"
#include "explore/point_log.hpp"
#include "explore/shared_region.hpp"
#include "runtime/code_ranges.hpp"
#include "runtime/controller.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

struct ExplorationState {
  ExplorationConfig config;
  SharedRegion* region = nullptr;              // where each execution leaves its trace
  std::unique_ptr<SharedRegion> region_owned;  // the region, when the state made it
  std::unique_ptr<PointLog> log;               // a child's choices, for the strategy (fork)
  std::unique_ptr<Strategy> strategy;
  std::unique_ptr<ChildSink> sink;
  int stdin_fd = -1;   // the program's whole input (a memfd, read-only), fed to every execution
  int output_fd = -1;  // memfd capturing each execution's stdout and stderr
  std::unique_ptr<OutputCheck> output_check;  // --check-output (stdout apart then)
  detect::RaceDetector* races = nullptr;      // the executions' (a fork child's own copy)
  rt::CodeRanges no_preempt;        // the code --no-preempt-in names, found before any fork
  rt::RacyPoints racy;              // accesses known to race: scheduling points with kRacy
  std::vector<std::string> points;  // racy's code locations, for the schedules
  pid_t pid = 0;                    // the server's own (the kernel's, not a virtual one)
};

// What an execution's controller is given, the same for both executors: the state's
// strategy, sink, options, scheduling points, race detector, and the shared region's
// trace.
rt::ControllerConfig controller_config(ExplorationState& s);

}  // namespace weft::explorer
