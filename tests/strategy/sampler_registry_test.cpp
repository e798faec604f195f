// The registry's entries for the samplers pos, pos* and tb: each constructs from its spec,
// and a bad spec is refused with one line naming what is accepted.
#include <gtest/gtest.h>

#include "strategy/pos.hpp"
#include "strategy/registry.hpp"
#include "strategy/thread_bound.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

const StrategyInfo* listed(std::string_view name) {
  for (const StrategyInfo& info : strategy_list())
    if (info.name == name) return &info;
  return nullptr;
}

TEST(SamplerRegistry, ListsPosPosStarAndTb) {
  ASSERT_NE(listed("pos"), nullptr);
  ASSERT_NE(listed("pos*"), nullptr);
  ASSERT_NE(listed("tb"), nullptr);
  EXPECT_EQ(listed("pos")->usage, "pos");
  EXPECT_EQ(listed("pos*")->usage, "pos*");
  EXPECT_EQ(listed("tb")->usage, "tb[:<t>[:<c>]]");
  for (const char* name : {"pos", "pos*", "tb"}) {
    const std::string_view d = listed(name)->description;
    EXPECT_EQ(d.find('\n'), std::string_view::npos);
    EXPECT_NE(d.find(name[0] == 'p' ? "CAV'18" : "Bindal, Bansal, Lal"), std::string_view::npos);
  }
}

TEST(SamplerRegistry, MakesTheStrategiesASpecNames) {
  std::string error;
  auto pos = make_strategy("pos", 1, &error);
  ASSERT_NE(pos, nullptr) << error;
  EXPECT_FALSE(dynamic_cast<PosStrategy&>(*pos).relaxes_reads());
  auto star = make_strategy("pos*", 1, &error);
  ASSERT_NE(star, nullptr) << error;
  EXPECT_TRUE(dynamic_cast<PosStrategy&>(*star).relaxes_reads());
  auto by_default = make_strategy("tb", 1, &error);
  ASSERT_NE(by_default, nullptr) << error;
  EXPECT_EQ(dynamic_cast<ThreadBoundStrategy&>(*by_default).thread_bound(), 3u);
  for (std::uint32_t t : {2u, 3u, 4u, 8u}) {
    auto tb = make_strategy("tb:" + std::to_string(t), 1, &error);
    ASSERT_NE(tb, nullptr) << error;
    EXPECT_EQ(dynamic_cast<ThreadBoundStrategy&>(*tb).thread_bound(), t);
    EXPECT_EQ(dynamic_cast<ThreadBoundStrategy&>(*tb).preemptions(), 0u);
  }
  auto fragments = make_strategy("tb:3:2", 1, &error);
  ASSERT_NE(fragments, nullptr) << error;
  EXPECT_EQ(dynamic_cast<ThreadBoundStrategy&>(*fragments).preemptions(), 2u);
  for (const char* spec : {"pos", "pos*", "tb", "tb:2", "tb:3:1"}) {
    SCOPED_TRACE(spec);
    auto s = make_strategy(spec, 7, &error);
    const model::RunResult r = model::run(*s, model::pos_running_example(true), 300);
    EXPECT_EQ(r.executions, 300u);
    EXPECT_EQ(r.violations, 0u) << r.violation;
  }
}

TEST(SamplerRegistry, RefusesBadSpecsWithOneLine) {
  const struct {
    const char* spec;
    const char* error;
  } bad[] = {
      {"pos:3", "pos takes no argument, got \"3\" (usage: pos)"},
      {"pos:", "pos takes no argument, got \"\" (usage: pos)"},
      {"pos*:1", "pos* takes no argument, got \"1\" (usage: pos*)"},
      {"tb:1", "tb: the thread bound t must be an integer from 2 to 8, got \"1\" (usage: "
               "tb[:<t>[:<c>]])"},
      {"tb:x", "tb: the thread bound t must be an integer from 2 to 8, got \"x\" (usage: "
               "tb[:<t>[:<c>]])"},
      {"tb:", "tb: the thread bound t must be an integer from 2 to 8, got \"\" (usage: "
              "tb[:<t>[:<c>]])"},
      {"tb:9", "tb: the thread bound t must be an integer from 2 to 8, got \"9\" (usage: "
               "tb[:<t>[:<c>]])"},
      {"tb:2:x", "tb: the preemption count c must be an integer from 0 to 1000, got \"x\" "
                 "(usage: tb[:<t>[:<c>]])"},
      {"tb:2:", "tb: the preemption count c must be an integer from 0 to 1000, got \"\" "
                "(usage: tb[:<t>[:<c>]])"},
      {"tb:2:1:1", "tb: the preemption count c must be an integer from 0 to 1000, got \"1:1\" "
                   "(usage: tb[:<t>[:<c>]])"},
      {"tb:2:1001", "tb: the preemption count c must be an integer from 0 to 1000, got \"1001\" "
                    "(usage: tb[:<t>[:<c>]])"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.spec);
    std::string error;
    EXPECT_EQ(make_strategy(b.spec, 0, &error), nullptr);
    EXPECT_EQ(error, b.error);
    EXPECT_EQ(make_strategy(b.spec, 0, nullptr), nullptr);
  }
}

}  // namespace
}  // namespace weft
