// portfolio: members take turns, one execution each; a member whose space is exhausted
// drops out and the portfolio ends when all have; coverage names the member that ran the
// last execution; bad member lists are refused with one line.
#include "strategy/portfolio.hpp"

#include <gtest/gtest.h>

#include "strategy/registry.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

TEST(Portfolio, MembersTakeTurnsAndTheLastOneIsNamed) {
  std::string error;
  auto s = make_strategy("portfolio:random+pct:2+pos", 7, &error);
  ASSERT_NE(s, nullptr) << error;
  const char* expected[] = {"random", "pct:2", "pos", "random", "pct:2", "pos", "random"};
  const model::Program program = model::pos_running_example();
  model::Executor ex(program);
  for (const char* name : expected) {
    ASSERT_TRUE(s->next_execution());
    ex.run(*s);  // ends with execution_done
    EXPECT_EQ(s->coverage().origin, name);
  }
  EXPECT_NE(s->coverage().summary.find("random: 3"), std::string::npos) << s->coverage().summary;
  EXPECT_NE(s->coverage().summary.find("pct:2: 2"), std::string::npos) << s->coverage().summary;
}

TEST(Portfolio, ExhaustedMembersDropOutAndTheSearchEndsWithTheLast) {
  // Each member alone exhausts its space; together they run the sum, then stop.
  const model::Program p = model::independent_threads(2, 2);
  const std::uint64_t dfs_total = model::run(*make_strategy("dfs", 0, nullptr), p, 1000).executions;
  const std::uint64_t pb0_total = model::run(*make_strategy("pb:0", 0, nullptr), p, 1000).executions;
  ASSERT_GT(dfs_total, pb0_total);
  auto s = make_strategy("portfolio:dfs+pb:0", 0, nullptr);
  ASSERT_NE(s, nullptr);
  const model::RunResult r = model::run(*s, p, 1000);
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.executions, dfs_total + pb0_total);
  EXPECT_EQ(r.violations, 0u) << r.violation;
  EXPECT_TRUE(s->coverage().complete) << s->coverage().summary;
}

TEST(Portfolio, DefaultMembersAreSeededApart) {
  auto s = make_strategy("portfolio", 3, nullptr);
  ASSERT_NE(s, nullptr);
  const model::RunResult r = model::run(*s, model::pos_running_example(), 400);
  EXPECT_EQ(r.executions, 400u);
  EXPECT_EQ(r.violations, 0u) << r.violation;
  for (const char* m : {"pos*", "pct:3", "random", "pb"})
    EXPECT_NE(s->coverage().summary.find(m), std::string::npos) << s->coverage().summary;
}

TEST(Portfolio, BadMemberListsAreRefused) {
  for (const char* spec : {"portfolio:", "portfolio:pct:3++random", "portfolio:bogus",
                           "portfolio:random+portfolio", "portfolio:pct:0"}) {
    std::string error;
    EXPECT_EQ(make_strategy(spec, 0, &error), nullptr) << spec;
    EXPECT_NE(error.find("portfolio"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace weft
