#include "strategy/happens_before_class.hpp"

#include <unordered_map>
#include <vector>

#include "strategy/dependence.hpp"

namespace weft {

bool steps_dependent(const Event& a, const Event& b) {
  if (a.thread == b.thread || ends_process(a) || ends_process(b)) return true;
  if (!dependent(a.thread, a.op, b.thread, b.op)) return false;
  if (((a.flags | b.flags) & kFailed) == 0) return true;
  // A failed step changed nothing: only a write of the other one conflicts with it.
  ObjectAccess x[2], y[2];
  return conflict(x, object_accesses(a, x), y, object_accesses(b, y));
}

// The class's lexicographic normal form: of the steps whose dependent predecessors have
// all been taken, always the one of the lowest thread. Every execution of the class has
// the same one; its steps, hashed (FNV-1a), are the class's number. Objects are numbered
// in the order the normal form first touches them: the same object may lie at another
// address in another run (another strategy's process lays out its memory otherwise).
std::uint64_t happens_before_class(std::span<const Event> steps) {
  const std::size_t n = steps.size();
  std::vector<std::uint32_t> waiting(n, 0);
  std::vector<std::vector<std::uint32_t>> after(n);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (steps_dependent(steps[i], steps[j])) {
        after[i].push_back(static_cast<std::uint32_t>(j));
        ++waiting[j];
      }
  std::vector<bool> taken(n, false);
  std::unordered_map<std::uint64_t, std::uint64_t> number;
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto mix = [&h](std::uint64_t v) {
    for (int b = 0; b < 8; ++b, v >>= 8) h = (h ^ (v & 0xff)) * 0x100000001b3ull;
  };
  for (std::size_t done = 0; done < n; ++done) {
    std::size_t pick = n;
    for (std::size_t k = 0; k < n; ++k)
      if (!taken[k] && waiting[k] == 0 && (pick == n || steps[k].thread < steps[pick].thread))
        pick = k;
    taken[pick] = true;
    for (std::uint32_t j : after[pick]) --waiting[j];
    const Event& e = steps[pick];
    mix(std::uint64_t{e.thread} << 32 | std::uint64_t(e.op.kind) << 8 | (e.flags & kFailed));
    mix(e.op.object == 0 ? 0 : number.emplace(e.op.object, number.size() + 1).first->second);
  }
  return h;
}

}  // namespace weft
