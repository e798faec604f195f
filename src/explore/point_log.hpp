#pragma once
// The fork server keeps the search state; each execution runs in a forked child with a
// copy of the strategy, which chooses locally (no round trip per step). The child logs
// every scheduling point it was shown into shared memory; afterwards the server shows the
// same points to its own strategy, which therefore makes the same choices and ends in
// the same state, as if it had run the execution itself.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/schedule.hpp"
#include "core/strategy.hpp"

namespace weft::explorer {

class PointLog {
 public:
  // Address space for `want` bytes (nothing committed), or, under an address-space limit,
  // a quarter of it, or as much as there is down to least(steps): an execution of `steps` steps with up to 8
  // threads enabled at each fits (more fill it: a tool error says so).
  PointLog(std::size_t want, std::uint64_t steps);
  static std::size_t least(std::uint64_t steps);
  std::size_t capacity() const { return capacity_; }
  ~PointLog();
  PointLog(const PointLog&) = delete;
  PointLog& operator=(const PointLog&) = delete;

  bool ok() const { return base_ != nullptr; }
  void clear();
  // false when full (the execution is then reported as a tool error).
  bool append(const SchedulingPoint& p);
  bool append_value(std::size_t n);
  // Shows the logged points to `strategy` in order and checks its answers against the
  // decisions the child recorded. "" on success, else why they differ.
  std::string feed(Strategy& strategy, const Decision* decisions, std::size_t ndecisions) const;

 private:
  struct Header;
  Header* header() const;
  char* base_ = nullptr;
  std::size_t capacity_ = 0;
};

// Wraps the child's copy of the strategy: logs each point, then asks the copy.
class RecordingStrategy final : public Strategy {
 public:
  using OverflowFn = void (*)();  // reports the full log; does not return
  RecordingStrategy(Strategy* inner, PointLog* log, OverflowFn overflow)
      : inner_(inner), log_(log), overflow_(overflow) {}
  bool next_execution() override { return inner_->next_execution(); }
  ThreadId choose(const SchedulingPoint& p) override {
    if (!log_->append(p)) overflow_();
    return inner_->choose(p);
  }
  std::size_t choose_value(std::size_t n) override {
    if (!log_->append_value(n)) overflow_();
    return inner_->choose_value(n);
  }
  void execution_done(const Trace& t) override { inner_->execution_done(t); }
  Coverage coverage() const override { return inner_->coverage(); }

 private:
  Strategy* inner_;
  PointLog* log_;
  OverflowFn overflow_;
};

}  // namespace weft::explorer
