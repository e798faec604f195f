#include "strategy/portfolio.hpp"

namespace weft {

bool PortfolioStrategy::next_execution() {
  // Round robin over the members still running, starting after the last one.
  for (std::size_t tried = 0; tried < members_.size(); ++tried) {
    if (started_) current_ = (current_ + 1) % members_.size();
    started_ = true;
    Member& m = members_[current_];
    if (m.exhausted || m.elsewhere) continue;
    if (m.strategy->next_execution()) {
      ++m.executions;
      return true;
    }
    m.exhausted = true;
  }
  return false;
}

bool PortfolioStrategy::set_shard(const Shard& shard) {
  const std::uint32_t m = static_cast<std::uint32_t>(members_.size());
  for (std::uint32_t j = 0; j < m; ++j) {
    Member& member = members_[j];
    if (shard.count <= m) {
      member.elsewhere = j % shard.count != shard.index;
      if (!member.elsewhere && !member.strategy->set_shard(Shard{})) return false;
    } else {
      member.elsewhere = shard.index % m != j;
      // The shards running member j: j, j + m, j + 2m, ... below shard.count.
      const Shard part{shard.index / m, (shard.count - j + m - 1) / m};
      member.split = part.count > 1;
      if (!member.elsewhere && !member.strategy->set_shard(part)) return false;
    }
  }
  return true;
}

Coverage PortfolioStrategy::coverage() const {
  Coverage c;
  c.kind = "portfolio";
  std::string parts;
  bool complete = false;
  for (const Member& m : members_) {
    if (m.elsewhere) continue;
    c.executions += m.executions;
    const Coverage mc = m.strategy->coverage();
    if (c.nondeterminism.empty()) c.nondeterminism = mc.nondeterminism;
    // One member that exhausted a space with a guarantee covers it for the whole run
    // (not its shard's part of one).
    complete |= m.exhausted && !m.split && mc.complete && mc.kind == "full";
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
