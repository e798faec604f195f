#pragma once
// Test helpers that implement Strategy by hand: a fixed script of choices, and a recorder
// that keeps every SchedulingPoint it was shown.
#include <cstddef>
#include <vector>

#include "core/scheduling_point.hpp"
#include "core/strategy.hpp"

namespace weft::model {

// Runs the threads of `script` in order, then default_choice(); values from `values`,
// then 0. Repeats the same script every execution. Never exhausted.
class ScriptedStrategy : public Strategy {
 public:
  explicit ScriptedStrategy(std::vector<ThreadId> script = {}, std::vector<std::size_t> values = {})
      : script_(std::move(script)), values_(std::move(values)) {}
  bool next_execution() override {
    next_ = next_value_ = 0;
    ++executions_;
    return true;
  }
  ThreadId choose(const SchedulingPoint& p) override {
    return next_ < script_.size() ? script_[next_++] : default_choice(p);
  }
  std::size_t choose_value(std::size_t) override {
    return next_value_ < values_.size() ? values_[next_value_++] : 0;
  }
  void execution_done(const Trace& trace) override { last_steps_ = trace.size(); }
  Coverage coverage() const override {
    Coverage c;
    c.executions = executions_;
    return c;
  }
  std::size_t last_steps() const { return last_steps_; }

 private:
  std::vector<ThreadId> script_;
  std::vector<std::size_t> values_;
  std::size_t next_ = 0, next_value_ = 0, executions_ = 0, last_steps_ = 0;
};

// A copy of one SchedulingPoint (the spans of the original do not outlive choose()).
struct SeenPoint {
  std::size_t step;
  ThreadId current;
  bool current_enabled;
  std::vector<ThreadId> enabled;
  std::vector<Op> next_ops;
  std::size_t thread_count;
};

// Forwards to another strategy and records what it was shown.
class RecordingStrategy : public Strategy {
 public:
  explicit RecordingStrategy(Strategy& inner) : inner_(inner) {}
  bool next_execution() override {
    points.clear();
    values.clear();
    return inner_.next_execution();
  }
  ThreadId choose(const SchedulingPoint& p) override {
    points.push_back(SeenPoint{p.step, p.current, p.current_enabled,
                               {p.enabled.begin(), p.enabled.end()},
                               {p.next_ops.begin(), p.next_ops.end()}, p.thread_count});
    return inner_.choose(p);
  }
  std::size_t choose_value(std::size_t n) override {
    values.push_back(n);
    return inner_.choose_value(n);
  }
  void execution_done(const Trace& trace) override { inner_.execution_done(trace); }
  Coverage coverage() const override { return inner_.coverage(); }

  std::vector<SeenPoint> points;    // of the current execution
  std::vector<std::size_t> values;  // the n of each choose_value()

 private:
  Strategy& inner_;
};

}  // namespace weft::model
