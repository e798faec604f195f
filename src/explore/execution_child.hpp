#pragma once
// What both executors (in-process and fork server) do in the process that runs
// executions, and how the supervising process reads what it left in shared memory.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/run_record.hpp"
#include "core/strategy.hpp"
#include "explore/shared_region.hpp"
#include "runtime/execution_sink.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

// Bugs and tool errors end the execution process, leaving their description in the
// shared region.
class ChildSink final : public rt::ExecutionSink {
 public:
  explicit ChildSink(SharedHeader* h) : h_(h) {}
  [[noreturn]] void on_bug(const rt::BugReport& bug) override;
  [[noreturn]] void on_tool_error(std::string_view message, std::uintptr_t pc = 0) override;
  [[noreturn]] void on_cut(std::uint64_t steps) override;
  void on_race(const DataRace& race) override;
  void on_unfinished(std::span<const BlockedThread> threads) override;
  // The strategy whose coverage a bug should record (what was covered before it).
  void set_strategy(const Strategy* s) { strategy_ = s; }

 private:
  SharedHeader* h_;
  const Strategy* strategy_ = nullptr;
};

// What the execution's unfinished threads would have done next (on_unfinished), as
// steps for Trace::unfinished.
std::vector<Event> unfinished_steps(const SharedHeader& h);
// The trace the execution just run left in `region`; *unfinished holds its unfinished
// steps (which the trace points into).
Trace region_trace(SharedRegion& region, std::vector<Event>* unfinished);

// Records what the strategy covered, for the supervising process.
void write_coverage(SharedHeader& h, const Coverage& coverage);

// Crash handlers, one CPU for all controlled threads, and the hang watchdog: a thread of
// the execution process, or (`supervised`) the supervising process, which then only
// needs the execution to answer its sampling signal (and pinned itself before forking).
void install_child_detectors(SharedHeader& h, double hang_timeout_s, bool supervised = false);
// Finds the program's writable data (its globals), once: an execution that ends with a bug
// notes the global pointers to heap blocks there. Called before forking (the fork server,
// weft::explore), so that each child has it at no cost and takes no loader lock.
void find_program_data();

// Only one controlled thread runs at a time: on one CPU, a hand-off is a local context
// switch instead of a wake-up across CPUs (measured in `make bench`).
void pin_to_one_cpu(int nth = -1);  // nth >= 0: the nth allowed cpu, not the current one

// The bug the execution process left (or, if it died without a word, a crash), with its
// trace and schedule. `wait_status` is from waitpid.
// `points`: the extra scheduling points the execution ran with (Schedule::points).
BugRecord read_bug(SharedRegion& region, int wait_status, std::uint64_t fingerprint,
                   const std::string& strategy, std::uint64_t seed,
                   const std::vector<std::string>& points = {});

// The encoded schedule of the execution the region holds, as far as it got.
std::string region_schedule(SharedRegion& region, std::uint64_t fingerprint,
                            const std::string& strategy, std::uint64_t seed,
                            const std::vector<std::string>& points);

// `text` as a weft3 schedule that names `options`, those its execution ran under;
// unchanged when it does not decode within `steps`.
std::string with_options(const std::string& text,
                         const std::vector<std::pair<std::string, std::string>>& options,
                         std::uint64_t steps);

// A race the execution process listed (--races=report), as a record; `message` says so.
BugRecord race_record(const RaceSlot& slot, std::string message);

// Extra scheduling points (--preempt-on=racy) between a schedule and this process: the
// code locations of `racy` (Schedule::points), and back. resolve_points() adds each to
// *racy; "" or a one-line error naming a location no module of this program holds.
std::vector<std::string> point_locations(const rt::RacyPoints& racy);
std::string resolve_points(const std::vector<std::string>& points, rt::RacyPoints* racy);
// Those locations as one line, comma-separated (a checkpoint's, the shared region's), and
// back.
std::string join_points(const std::vector<std::string>& points);
std::vector<std::string> split_points(std::string_view joined);

}  // namespace weft::explorer
