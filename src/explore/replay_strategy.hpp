#pragma once
// Replays a recorded schedule decision by decision, and says precisely where and why an
// execution stops following it instead of silently doing something else.
#include <string>
#include <vector>

#include "core/schedule.hpp"
#include "core/strategy.hpp"
#include "runtime/execution_sink.hpp"

namespace weft::explorer {

class ReplayStrategy final : public OneExecutionStrategy {
 public:
  ReplayStrategy(std::vector<Decision> decisions, rt::ExecutionSink* sink)
      : decisions_(std::move(decisions)), sink_(sink) {}

  ThreadId choose(const SchedulingPoint& p) override;
  std::size_t choose_value(std::size_t n) override;
  void execution_done(const Trace&) override;

 private:
  [[noreturn]] void diverge(const std::string& what);

  std::vector<Decision> decisions_;
  rt::ExecutionSink* sink_;
  std::size_t next_ = 0;
  std::size_t step_ = 0;
};

}  // namespace weft::explorer
