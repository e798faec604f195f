// vb:<v>,<c> (variable bounding, Bindal, Bansal and Lal, section 2) on model programs:
// exactly the executions whose at most c preemptions touch at most v distinct variables,
// each once, by increasing (v, c), checked against brute-force enumeration of every
// schedule; and the coverage statement names the (v, c) pairs completed, and the whole
// space when the bounds left nothing out.
#include "strategy/variable_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "strategy/dfs.hpp"
#include "strategy/registry.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"
#include "test_util.hpp"

namespace weft {
namespace {

using model::Program;

Program random_program(std::uint64_t seed) { return model::random_program(seed, false); }

// Preemptions and the distinct objects the preempted threads were about to touch.
std::pair<std::size_t, std::size_t> cost(std::span<const Event> events) {
  std::size_t c = 0;
  std::set<std::uintptr_t> vars;
  for (std::size_t k = 0; k < events.size(); ++k) {
    if (!(events[k].flags & kPreemption)) continue;
    ++c;
    const ThreadId preempted = events[k - 1].thread;
    for (std::size_t j = k; j < events.size(); ++j)
      if (events[j].thread == preempted) {
        vars.insert(events[j].op.object);
        break;
      }
  }
  return {c, vars.size()};
}

TEST(VariableBound, ExactlyTheExecutionsWithinBothBoundsEachOnce) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Program p = random_program(seed);
    // Brute force: every schedule, kept when within the bounds.
    std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> all;
    {
      DfsStrategy dfs;
      model::Executor ex(p);
      while (dfs.next_execution()) {
        ex.run(dfs);
        all.push_back({test::schedule_text(ex), cost(ex.events())});
      }
    }
    for (std::uint32_t v = 1; v <= 2; ++v)
      for (std::uint64_t c = 1; c <= 2; ++c) {
        std::set<std::string> want;
        for (const auto& [s, vc] : all)
          if (vc.first <= c && vc.second <= v) want.insert(s);
        VariableBoundStrategy vb(v, c);
        model::Executor ex(p);
        std::vector<std::string> got;
        std::size_t last_level = 0;
        while (vb.next_execution()) {
          ex.run(vb);
          got.push_back(test::schedule_text(ex));
          const auto [cc, vv] = cost(ex.events());
          EXPECT_EQ(cc, vb.preemptions_used());
          EXPECT_EQ(vv, vb.variables_used());
          const std::size_t l = vv * (c + 1) + cc;  // by increasing v, then c
          EXPECT_GE(l, last_level) << "seed " << seed;
          last_level = l;
        }
        EXPECT_EQ(got.size(), want.size()) << "seed " << seed << " v " << v << " c " << c;
        EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), want)
            << "seed " << seed << " v " << v << " c " << c;
        const Coverage cov = vb.coverage();
        EXPECT_TRUE(cov.complete) << cov.summary;
        EXPECT_EQ(cov.kind, CoverageKind::kVariableBound);
        EXPECT_EQ(cov.bound, static_cast<std::int64_t>(v));
        // The whole space is claimed exactly when the bounds left nothing out.
        EXPECT_EQ(cov.summary.find("every schedule") != std::string::npos, want.size() == all.size())
            << "seed " << seed << ": " << cov.summary;
      }
  }
}

TEST(VariableBound, ABudgetStatesWhichPairsAreComplete) {
  Program p;
  const auto x = p.variable("x"), y = p.variable("y");
  for (int t = 0; t < 3; ++t) p.thread("T" + std::to_string(t)).write(x, t).write(y, t).write(x, t).write(y, t);
  VariableBoundStrategy vb(2, 2);
  const model::RunResult r = model::run(vb, p, 40);
  EXPECT_FALSE(r.exhausted);
  EXPECT_FALSE(r.coverage.complete);
  EXPECT_NE(r.coverage.summary.find("complete: v=0 c<=2, v=1 c<="), std::string::npos)
      << r.coverage.summary;
  EXPECT_NE(r.coverage.summary.find("under way"), std::string::npos) << r.coverage.summary;
}

TEST(VariableBound, TheRegistryChecksItsBounds) {
  std::string error;
  auto s = make_strategy("vb:1", 0, &error);
  ASSERT_NE(s, nullptr) << error;
  EXPECT_EQ(dynamic_cast<TreeStrategy&>(*s).state_cache(), nullptr);
  EXPECT_NE(make_strategy("vb:2,3", 0, &error), nullptr) << error;
  EXPECT_NE(make_strategy("vb", 0, &error), nullptr) << error;
  for (const char* bad : {"vb:0", "vb:x", "vb:1,0", "vb:1,", "vb:1,2,3"}) {
    error.clear();
    EXPECT_EQ(make_strategy(bad, 0, &error), nullptr) << bad;
    EXPECT_NE(error.find("vb"), std::string::npos) << bad << ": " << error;
  }
  // Each bound within its range, but their table of levels would take 16 GB (found by
  // fuzz/strategy_spec_fuzz.cpp): refused, naming both.
  error.clear();
  EXPECT_EQ(make_strategy("vb:1000,1000000", 0, &error, {.syntax_only = true}), nullptr);
  EXPECT_NE(error.find("vb: v=1000 and c=1000000 make (v+1)*(c+1) = 1001001001 levels"),
            std::string::npos)
      << error;
  EXPECT_EQ(make_strategy("vb:100,40500", 0, &error), nullptr);
  EXPECT_NE(make_strategy("vb:1,500000", 0, &error), nullptr) << error;
  EXPECT_NE(make_strategy("vb:1000,1000", 0, &error), nullptr) << error;
}

}  // namespace
}  // namespace weft
