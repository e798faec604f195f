#pragma once
// Where the runtime sends what it finds. The explorer implements it: it owns the memory
// the trace is recorded into and decides what a bug does to the run.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/run_record.hpp"

namespace weft::rt {

struct BugReport {
  BugKind kind = BugKind::kAssertion;
  std::string_view message;
  ThreadId thread = kNoThread;
  std::uintptr_t pc = 0;
  std::string_view file;
  int line = 0;
  std::vector<BlockedThread> blocked;
  const DataRace* race = nullptr;  // kind data-race: the two accesses
  const Misuse* misuse = nullptr;  // kind api-misuse: the object misused
};

class ExecutionSink {
 public:
  virtual ~ExecutionSink() = default;
  // A bug ended the execution. Never returns: the exploration process ends.
  [[noreturn]] virtual void on_bug(const BugReport& bug) = 0;
  // The execution cannot go on for a reason that is not the program's bug (a replay that
  // diverged, a strategy that chose a disabled thread). Never returns.
  // `pc`: where in the program it happened, when that says something (0: nowhere).
  [[noreturn]] virtual void on_tool_error(std::string_view message, std::uintptr_t pc = 0) = 0;
  // The execution reached its step bound while every thread kept making progress
  // (ControllerConfig::cut_long_executions): it ends there, cut, and is no bug. Never
  // returns. Only sinks that can end one execution alone are asked.
  [[noreturn]] virtual void on_cut(std::uint64_t steps) = 0;
  // A data race, with --races=report: the execution goes on.
  virtual void on_race(const DataRace& race) {}
  // The process is about to end (an exit, a bug): the threads it leaves unfinished, each
  // at the operation it would perform next (Trace::unfinished).
  virtual void on_unfinished(std::span<const BlockedThread> threads) {}
};

}  // namespace weft::rt
