// The POS micro-benchmark's machinery (tests/support/micro_programs.hpp), checked against
// exhaustive search: the brute-force partial orders are exactly those dfs reaches, the
// random walk's exact probabilities are those of its schedules, and on small programs
// POS covers every partial order better than random walk does.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "strategy/dfs.hpp"
#include "strategy/pos.hpp"
#include "strategy/random_walk.hpp"
#include "support/micro_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

using model::micro::MicroEvent;
using model::micro::MicroProgram;
using model::micro::PartialOrders;

MicroProgram hand_program(std::size_t threads, std::size_t events,
                          std::initializer_list<MicroEvent> list) {
  MicroProgram p;
  p.threads = threads;
  p.events_per_thread = events;
  p.events = list;
  for (const MicroEvent& e : p.events) p.objects = std::max<std::size_t>(p.objects, e.object + 1);
  return p;
}

// Runs dfs to the end; per partial order: the random walk's probability of its schedules
// (the product of 1/enabled over each) and the fewest preemptions among them.
struct Exhaustive {
  std::map<std::size_t, double> probability;
  std::map<std::size_t, int> preemptions;
  std::uint64_t schedules = 0;
  std::uint64_t unknown = 0;  // schedules whose partial order was not enumerated
};

Exhaustive exhaust(const PartialOrders& orders) {
  Exhaustive x;
  DfsStrategy dfs;
  const model::Program p = orders.program().program();
  model::Executor ex(p);
  while (dfs.next_execution()) {
    ex.run(dfs);
    ++x.schedules;
    const std::size_t k = orders.index_of(ex.events());
    if (k == PartialOrders::npos) {
      ++x.unknown;
      continue;
    }
    double pr = 1;
    for (const Event& e : ex.events()) pr /= e.enabled;
    x.probability[k] += pr;
    const int pre = static_cast<int>(Trace(ex.events().data(), ex.events().size()).preemptions());
    auto [it, fresh] = x.preemptions.emplace(k, pre);
    if (!fresh) it->second = std::min(it->second, pre);
  }
  return x;
}

void expect_agrees_with_dfs(const MicroProgram& program) {
  SCOPED_TRACE(program.text());
  const PartialOrders orders(program);
  const Exhaustive x = exhaust(orders);
  EXPECT_EQ(x.unknown, 0u);
  ASSERT_EQ(x.probability.size(), orders.size());  // every partial order is reached
  double total = 0;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    EXPECT_NEAR(orders.random_walk_probability(i), x.probability.at(i), 1e-12) << i;
    EXPECT_EQ(orders.min_preemptions(i), x.preemptions.at(i)) << i;
    total += orders.random_walk_probability(i);
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(PosMicro, PartialOrdersAreExactlyThoseExhaustiveSearchReaches) {
  // 3 threads x 3 events over 3 objects: 1680 schedules each.
  Rng rng(17);
  static const int kUniform[] = {3, 3, 3};
  static const int kSkewed[] = {1, 2, 6};
  for (int i = 0; i < 3; ++i) {
    expect_agrees_with_dfs(model::micro::random_program(rng, 3, 3, kUniform));
    expect_agrees_with_dfs(model::micro::random_program(rng, 3, 3, kSkewed));
    expect_agrees_with_dfs(model::micro::random_program(rng, 3, 3, kUniform, 4));  // reads
    expect_agrees_with_dfs(model::micro::random_program(rng, 3, 3, kSkewed, 5));
  }
}

TEST(PosMicro, ReadsCommute) {
  // Two threads read x, a third writes it. Six schedules, four partial orders: the write
  // first or last (the reads in either order are one), or between the reads (two).
  const MicroProgram p = hand_program(3, 1, {{0, 0, 0, true}, {1, 0, 0, true}, {2, 0, 0, false}});
  EXPECT_EQ(PartialOrders(p).size(), 4u);
  const MicroProgram writes =
      hand_program(3, 1, {{0, 0, 0, false}, {1, 0, 0, false}, {2, 0, 0, false}});
  EXPECT_EQ(PartialOrders(writes).size(), 6u);
}

TEST(PosMicro, RacesCountPairsThatCanBeEnabledTogether) {
  // A: x y; B: y x. Partial order a1<b2, b1<a2 has two races; a1<a2<b1<b2 only (a2, b1):
  // a1 and b2 are never enabled together when b2 needs a2 first.
  const MicroProgram p = hand_program(2, 2, {{0, 0, 0, false}, {0, 1, 1, false},
                                             {1, 0, 1, false}, {1, 1, 0, false}});
  const PartialOrders orders(p);
  std::multiset<int> races;
  for (std::size_t i = 0; i < orders.size(); ++i) races.insert(orders.races(i));
  EXPECT_EQ(orders.size(), 3u);  // the fourth combination is cyclic
  EXPECT_EQ(races, (std::multiset<int>{1, 1, 2}));
}

// Minimum hit ratio over all partial orders, from `samples` executions.
double min_hit_ratio(Strategy& s, const PartialOrders& orders, std::uint64_t samples) {
  const model::Program p = orders.program().program();
  model::Executor ex(p);
  std::vector<std::uint64_t> hits(orders.size(), 0);
  for (std::uint64_t i = 0; i < samples && s.next_execution(); ++i) {
    ex.run(s);
    const std::size_t k = orders.index_of(ex.events());
    EXPECT_NE(k, PartialOrders::npos);
    if (k != PartialOrders::npos) ++hits[k];
  }
  return double(*std::min_element(hits.begin(), hits.end())) / double(samples);
}

TEST(PosMicro, PosCoversEveryPartialOrderBetterThanRandomWalk) {
  // 3 threads x 4 events over 3 objects: the worst-covered partial order is hit far more
  // often under POS than random walk's exact worst; the random walk's sampled minimum
  // agrees with its exact one.
  Rng rng(5);
  static const int kPattern[] = {4, 4, 4};
  for (int i = 0; i < 2; ++i) {
    const MicroProgram program = model::micro::random_program(rng, 3, 4, kPattern);
    SCOPED_TRACE(program.text());
    const PartialOrders orders(program);
    double exact = 1;
    for (std::size_t k = 0; k < orders.size(); ++k)
      exact = std::min(exact, orders.random_walk_probability(k));
    PosStrategy pos(i, false);
    const double pos_min = min_hit_ratio(pos, orders, 200000);
    std::printf("%s: %zu partial orders; min hit ratio random walk %.2e (exact), pos %.2e\n",
                program.text().c_str(), orders.size(), exact, pos_min);
    EXPECT_GT(pos_min, 3 * exact);
  }
}

}  // namespace
}  // namespace weft
