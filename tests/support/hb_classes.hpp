#pragma once
// The happens-before class (Mazurkiewicz trace) of a model execution, computed
// independently of the strategies: per object, the order of its accesses by (thread,
// place in thread), with every run of consecutive non-writing accesses sorted (reads
// commute). Two executions of a model program are equivalent exactly when these agree.
// Used as the brute force that DPOR and best-first search are checked against.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/event.hpp"
#include "core/strategy.hpp"
#include "support/model_program.hpp"

namespace weft::model {

using ClassKey = std::vector<std::pair<std::uintptr_t, std::vector<std::uint64_t>>>;

// An execution by its steps, (thread, op kind, object) each: two executions of a model
// program are the same exactly when these agree.
using Steps = std::vector<std::uint64_t>;
inline Steps steps_of(std::span<const Event> events) {
  Steps s;
  for (const Event& e : events)
    s.push_back(std::uint64_t{e.thread} << 48 ^ std::uint64_t(e.op.kind) << 40 ^ e.op.object);
  return s;
}

inline ClassKey hb_class(std::span<const Event> events) {
  std::map<std::uintptr_t, std::vector<std::pair<std::uint64_t, bool>>> per_object;
  std::map<ThreadId, std::uint32_t> index;
  for (const Event& e : events) {
    const std::uint64_t who = std::uint64_t{e.thread} << 32 | index[e.thread]++;
    if (e.op.object == 0) continue;
    // A failed step (a try-lock of a held mutex) changed nothing: it reads.
    per_object[e.op.object].push_back(
        {who, (e.op.writes() || e.op.releases()) && !(e.flags & kFailed)});
  }
  ClassKey key;
  for (auto& [object, seq] : per_object) {
    std::vector<std::uint64_t> order;
    for (std::size_t i = 0; i < seq.size();) {
      std::size_t j = i;
      while (j < seq.size() && !seq[j].second) ++j;
      if (j == i) {
        order.push_back(seq[i].first);
        ++i;
        continue;
      }
      std::vector<std::uint64_t> run;
      for (std::size_t k = i; k < j; ++k) run.push_back(seq[k].first);
      std::sort(run.begin(), run.end());
      order.insert(order.end(), run.begin(), run.end());
      order.push_back(~std::uint64_t{0});  // the run's end
      i = j;
    }
    key.emplace_back(object, std::move(order));
  }
  return key;
}

struct ClassCount {
  std::set<ClassKey> classes;
  std::uint64_t executions = 0;
  bool exhausted = false;
  Coverage coverage;
};

// Runs `strategy` on `program` to completion (or `limit` executions) and collects the
// class of every execution.
inline ClassCount collect_classes(Strategy& strategy, const Program& program,
                                  std::uint64_t limit = 0) {
  ClassCount c;
  Executor ex(program);
  while (limit == 0 || c.executions < limit) {
    if (!strategy.next_execution()) {
      c.exhausted = true;
      break;
    }
    ex.run(strategy);
    c.classes.insert(hb_class(ex.events()));
    ++c.executions;
  }
  c.coverage = strategy.coverage();
  return c;
}

}  // namespace weft::model
