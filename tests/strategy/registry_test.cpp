// The registry: every listed strategy constructs from its name; every bad spec is refused
// with one line that says what was wrong and what is accepted.
#include "strategy/registry.hpp"

#include <set>

#include <gtest/gtest.h>

#include "strategy/pct.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

TEST(Registry, ListsTheStrategiesOnceEach) {
  std::set<std::string_view> names;
  for (const StrategyInfo& info : strategy_list()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(info.usage.substr(0, info.name.size()), info.name);
    EXPECT_FALSE(info.description.empty());
    EXPECT_EQ(info.description.find('\n'), std::string_view::npos);
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"random", "pct", "dfs", "pb", "db", "pos", "pos*",
                                               "tb", "pctvb", "portfolio", "dpor", "bf",
                                               "vb"}));
}

TEST(Registry, EveryListedStrategyConstructsAndRuns) {
  for (const StrategyInfo& info : strategy_list()) {
    SCOPED_TRACE(std::string(info.name));
    std::string error = "untouched";
    auto s = make_strategy(info.name, 1, &error);
    ASSERT_NE(s, nullptr) << error;
    const model::RunResult r = model::run(*s, model::pos_running_example(), 200);
    EXPECT_GT(r.executions, 0u);
    EXPECT_EQ(r.violations, 0u) << r.violation;
  }
}

TEST(Registry, PctTakesItsDepth) {
  std::string error;
  auto by_default = make_strategy("pct", 0, &error);
  ASSERT_NE(by_default, nullptr) << error;
  EXPECT_EQ(dynamic_cast<PctStrategy&>(*by_default).depth(), 3u);
  for (std::uint32_t d : {1u, 2u, 3u, 10u, 1000u}) {
    auto s = make_strategy("pct:" + std::to_string(d), 0, &error);
    ASSERT_NE(s, nullptr) << error;
    EXPECT_EQ(dynamic_cast<PctStrategy&>(*s).depth(), d);
  }
  EXPECT_NE(make_strategy("dfs", 0, nullptr), nullptr);
}

struct Bad {
  const char* spec;
  std::string error;
};

// "; known: " and every usage in listing order, as unknown names are answered.
std::string known() {
  std::string s;
  for (const StrategyInfo& info : strategy_list())
    s += (s.empty() ? "; known: " : ", ") + std::string(info.usage);
  return s;
}

TEST(Registry, RefusesBadSpecsWithOneLine) {
  const Bad bad[] = {
      {"", "no strategy given" + known()},
      {"foo", "unknown strategy \"foo\"" + known()},
      {"PCT", "unknown strategy \"PCT\"" + known()},
      {" random", "unknown strategy \" random\"" + known()},
      {"random\n", "unknown strategy \"random\\x0a\"" + known()},
      {"foo:3", "unknown strategy \"foo\"" + known()},
      {"pct:0", "pct: the depth d must be an integer from 1 to 1000, got \"0\" (usage: pct[:<d>])"},
      {"pct:x", "pct: the depth d must be an integer from 1 to 1000, got \"x\" (usage: pct[:<d>])"},
      {"pct:", "pct: the depth d must be an integer from 1 to 1000, got \"\" (usage: pct[:<d>])"},
      {"pct:-1", "pct: the depth d must be an integer from 1 to 1000, got \"-1\" (usage: pct[:<d>])"},
      {"pct:3x", "pct: the depth d must be an integer from 1 to 1000, got \"3x\" (usage: pct[:<d>])"},
      {"pct:1001", "pct: the depth d must be an integer from 1 to 1000, got \"1001\" (usage: pct[:<d>])"},
      {"pct:99999999999999999999999", "pct: the depth d must be an integer from 1 to 1000, got "
                                      "\"99999999999999999999999\" (usage: pct[:<d>])"},
      {"pct:3:4", "pct: the depth d must be an integer from 1 to 1000, got \"3:4\" (usage: pct[:<d>])"},
      {"dfs:3", "dfs takes no argument, got \"3\" (usage: dfs)"},
      {"dfs:", "dfs takes no argument, got \"\" (usage: dfs)"},
      {"random:1", "random takes no argument, got \"1\" (usage: random)"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.spec);
    std::string error;
    EXPECT_EQ(make_strategy(b.spec, 0, &error), nullptr);
    EXPECT_EQ(error, b.error);
    EXPECT_EQ(error.find('\n'), std::string::npos);
    EXPECT_EQ(make_strategy(b.spec, 0, nullptr), nullptr);  // no error wanted: still refused
  }
}

}  // namespace
}  // namespace weft
