#pragma once
// The in-process executor: a test body run by this process's own controller, one
// execution after another in the same process (weft::explore's; the whole exploration
// runs in a child of the test binary, so that a bug, which ends this process, never ends
// the test runner).
#include <functional>

#include "explore/executor.hpp"
#include "explore/exploration_state.hpp"
#include "runtime/controller.hpp"

namespace weft::explorer {

class InProcessExecutor final : public Executor {
 public:
  // `coverage_on_bug`: a bug records what the strategy covered before it (not a replay's).
  InProcessExecutor(ExplorationState& s, rt::Controller& controller,
                    const std::function<void()>& body, bool coverage_on_bug)
      : s_(s), controller_(controller), body_(body), coverage_on_bug_(coverage_on_bug) {}

  Executed run(std::uint64_t number, std::uint64_t deadline_ns) override;
  Trace trace() override { return controller_.trace(); }
  // The strategy made the execution's choices itself.
  std::string feed(Strategy&) override { return ""; }
  bool survives_bugs() const override { return false; }

 private:
  ExplorationState& s_;
  rt::Controller& controller_;
  const std::function<void()>& body_;
  bool coverage_on_bug_;
};

}  // namespace weft::explorer
