#include "strategy/portfolio.hpp"

namespace weft {

bool PortfolioStrategy::next_execution() {
  // Round robin over the members still running, starting after the last one.
  for (std::size_t tried = 0; tried < members_.size(); ++tried) {
    if (started_) current_ = (current_ + 1) % members_.size();
    started_ = true;
    Member& m = members_[current_];
    if (m.exhausted) continue;
    if (m.strategy->next_execution()) {
      ++m.executions;
      return true;
    }
    m.exhausted = true;
  }
  return false;
}

Coverage PortfolioStrategy::coverage() const {
  Coverage c;
  c.kind = "portfolio";
  std::string parts;
  bool complete = false;
  for (const Member& m : members_) {
    c.executions += m.executions;
    const Coverage mc = m.strategy->coverage();
    // One member that exhausted a space with a guarantee covers it for the whole run.
    complete |= m.exhausted && mc.complete && mc.kind == "full";
    // Samplers state nothing beyond their count; systematic members say what they covered.
    const bool states_coverage = mc.kind != "none" && !mc.summary.empty();
    parts += (parts.empty() ? "" : "; ") + m.name + ": " + std::to_string(m.executions) +
             (states_coverage ? " (" + mc.summary + ")" : "");
  }
  c.complete = complete;
  c.summary = "portfolio, " + std::to_string(c.executions) + " executions in turn: " + parts;
  if (started_) c.origin = members_[current_].name;
  return c;
}

}  // namespace weft
