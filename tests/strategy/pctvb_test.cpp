// PCTVB (variable and thread bounding paper, section 3) on model programs: change points
// only at accesses to the chosen variables, which finds a bug on a rarely accessed
// ("corner") variable far more often than PCT (the paper's Figure 6).
#include "strategy/pctvb.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "strategy/pct.hpp"
#include "strategy/registry.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

// A and B hammer x; the bug needs B to read y between A's two writes of y: a change point
// right after A's first access to y, the corner variable.
model::Program corner_variable(int noise) {
  model::Program p;
  const auto x = p.variable("x"), y = p.variable("y");
  model::ThreadBuilder a = p.thread("A"), b = p.thread("B");
  for (int i = 0; i < noise; ++i) {
    a.write(x, i);
    b.write(x, -i);
  }
  a.write(y, 1).label("Ay1").write(y, 2).label("Ay2");
  b.read(y, 0).label("By");
  p.expect_order("Ay1 By Ay2");
  return p;
}

TEST(Pctvb, FindsACornerVariableBugMoreOftenThanPct) {
  const model::Program p = corner_variable(20);
  PctvbStrategy pctvb(1, 2, 1);
  PctStrategy pct(1, 2);
  const model::RunResult vb = model::run(pctvb, p, 3000);
  const model::RunResult plain = model::run(pct, p, 3000);
  // About 1/12 (y drawn 1/2, its first access 1/3, A above B 1/2) against about 1/86.
  std::printf("[pctvb] corner variable, 3000 executions: pctvb:2,1 %llu hits, pct:2 %llu\n",
              static_cast<unsigned long long>(vb.hits), static_cast<unsigned long long>(plain.hits));
  EXPECT_GT(vb.hits, 150u) << vb.hits;
  EXPECT_GT(vb.hits, 3 * plain.hits) << vb.hits << " vs " << plain.hits;
  EXPECT_EQ(pctvb.known_variables(), 2u);
  EXPECT_NE(pctvb.coverage().summary.find("over 2 shared variables"), std::string::npos)
      << pctvb.coverage().summary;
}

TEST(Pctvb, IsReproducibleFromItsSeed) {
  const model::Program p = corner_variable(5);
  PctvbStrategy a(7, 3, 2), b(7, 3, 2);
  const model::RunResult ra = model::run(a, p, 500), rb = model::run(b, p, 500);
  EXPECT_EQ(ra.hits, rb.hits);
  EXPECT_EQ(ra.first_hit, rb.first_hit);
  EXPECT_EQ(ra.total_steps, rb.total_steps);
}

TEST(Pctvb, RegistryAndBadInput) {
  std::string error;
  auto s = make_strategy("pctvb:3,2", 0, &error);
  ASSERT_NE(s, nullptr) << error;
  EXPECT_TRUE(s->needs_memory_accesses());
  EXPECT_NE(make_strategy("pctvb", 0, &error), nullptr) << "defaults 3,2: " << error;
  for (const char* bad : {"pctvb:", "pctvb:3", "pctvb:0,1", "pctvb:3,0", "pctvb:3,x", "pctvb:,2"}) {
    EXPECT_EQ(make_strategy(bad, 0, &error), nullptr) << bad;
    EXPECT_NE(error.find("pctvb"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace weft
