#include "strategy/portfolio.hpp"

#include "core/state_words.hpp"

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
      if (!member.elsewhere && !member.strategy->distribution().set_shard(Shard{})) return false;
    } else {
      member.elsewhere = shard.index % m != j;
      // The shards running member j: j, j + m, j + 2m, ... below shard.count.
      const Shard part{shard.index / m, (shard.count - j + m - 1) / m};
      member.split = part.count > 1;
      if (!member.elsewhere && !member.strategy->distribution().set_shard(part)) return false;
    }
  }
  return true;
}

Coverage PortfolioStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kPortfolio;
  std::string parts;
  bool complete = false;
  for (const Member& m : members_) {
    if (m.elsewhere) continue;
    c.executions += m.executions;
    const Coverage mc = m.strategy->coverage();
    if (c.nondeterminism.empty()) c.nondeterminism = mc.nondeterminism;
    // One member that exhausted a space with a guarantee covers it for the whole run
    // (not its shard's part of one).
    complete |= m.exhausted && !m.split && mc.complete && mc.kind == CoverageKind::kFull;
    // Samplers state nothing beyond their count; systematic members say what they covered.
    const bool states_coverage = mc.kind != CoverageKind::kNone && !mc.summary.empty();
    parts += (parts.empty() ? "" : "; ") + m.name + ": " + std::to_string(m.executions) +
             (states_coverage ? " (" + mc.summary + ")" : "");
  }
  c.complete = complete;
  c.summary = "portfolio, " + std::to_string(c.executions) + " executions in turn: " + parts;
  if (started_) c.origin = members_[current_].name;
  return c;
}

bool PortfolioStrategy::resumable() const {
  for (const Member& m : members_)
    if (!m.strategy->distribution().resumable()) return false;
  return true;
}

// An unfinished execution is the current member's: it is not counted, and the resumed
// portfolio gives the turn to that member again (started_ false: next_execution stays).
void PortfolioStrategy::save_state(bool unfinished, std::vector<std::uint64_t>* out) const {
  StateWriter w(out);
  w.put(current_);
  w.put(started_ && !unfinished ? 1 : 0);
  w.put(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const Member& m = members_[i];
    const bool its = unfinished && started_ && i == current_;
    w.put_executions(m.executions, its);
    w.put(m.exhausted ? 1 : 0);
    std::vector<std::uint64_t> state;
    m.strategy->distribution().save_state(its, &state);
    w.put_vector(state);
  }
}

bool PortfolioStrategy::load_state(std::span<const std::uint64_t> words) {
  StateReader r(words);
  current_ = r.get_at_most(members_.size() == 0 ? 0 : members_.size() - 1);
  started_ = r.get_at_most(1) != 0;
  if (r.get() != members_.size()) return false;  // another portfolio's
  for (Member& m : members_) {
    m.executions = r.get();
    m.exhausted = r.get_at_most(1) != 0;
    const std::vector<std::uint64_t> state = r.get_vector();
    if (!r.ok() || !m.strategy->distribution().load_state(state)) return false;
  }
  return r.done();
}

}  // namespace weft
