// Checkpoints (weft run --checkpoint): a strategy saved between two executions and loaded
// into a fresh one goes on exactly as the saved one would have: the same executions in
// the same order, the same coverage. Also when the save comes during an execution that
// never ended (an interrupted run: it runs again after the resume). A damaged state is
// refused, never followed into a crash.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "strategy/registry.hpp"
#include "support/hb_classes.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"

namespace weft {
namespace {

using model::Program;

const char* const kSpecs[] = {"dfs", "pb", "db", "dpor", "bf:pb", "bf:dpor,rand", "vb:2", "random", "pct:3", "pos", "portfolio", "portfolio:dpor+random"};

std::unique_ptr<Strategy> make(const std::string& spec, bool cache) {
  std::string error;
  auto s = make_strategy(spec, 11, &error, {.state_cache = cache});
  EXPECT_NE(s, nullptr) << spec << ": " << error;
  return s;
}

struct Search {
  std::vector<model::Steps> executions;
  Coverage coverage;
};

// Runs `spec` on `program` for at most `budget` executions; at each execution number in
// `saves` (ascending), the strategy is saved and replaced by a fresh one loaded from the
// words (`unfinished`: saved after next_execution(), before the execution runs).
Search run(const std::string& spec, bool cache, const Program& program, std::uint64_t budget,
           std::vector<std::uint64_t> saves = {}, bool unfinished = false) {
  Search r;
  model::Executor ex(program);
  std::unique_ptr<Strategy> s = make(spec, cache);
  if (!s) return r;
  std::size_t next_save = 0;
  while (r.executions.size() < budget) {
    const bool save_now = next_save < saves.size() && saves[next_save] == r.executions.size();
    if (save_now) ++next_save;
    if (save_now && !unfinished) {
      std::vector<std::uint64_t> words;
      s->distribution().save_state(false, &words);
      s = make(spec, cache);
      EXPECT_TRUE(s->distribution().load_state(words)) << spec << " at " << r.executions.size();
    }
    if (!s->next_execution()) break;
    if (save_now && unfinished) {
      std::vector<std::uint64_t> words;
      s->distribution().save_state(true, &words);
      s = make(spec, cache);
      EXPECT_TRUE(s->distribution().load_state(words)) << spec << " at " << r.executions.size();
      if (!s->next_execution()) {
        ADD_FAILURE() << spec << ": the unfinished execution was lost";
        break;
      }
    }
    ex.run(*s);
    r.executions.push_back(model::steps_of(ex.events()));
  }
  r.coverage = s->coverage();
  return r;
}

void expect_same(const Search& a, const Search& b, const std::string& what) {
  EXPECT_EQ(a.executions, b.executions) << what;
  EXPECT_EQ(a.coverage.executions, b.coverage.executions) << what;
  EXPECT_EQ(a.coverage.classes, b.coverage.classes) << what;
  EXPECT_EQ(a.coverage.complete, b.coverage.complete) << what;
  EXPECT_EQ(a.coverage.summary, b.coverage.summary) << what;
}

TEST(Checkpoint, EveryResumableStrategySaysSo) {
  for (const char* spec : kSpecs) EXPECT_TRUE(make(spec, true)->distribution().resumable()) << spec;
  for (const char* spec : {"portfolio:pctvb+random", "pctvb", "tb"}) EXPECT_FALSE(make(spec, true)->distribution().resumable()) << spec;
}

TEST(Checkpoint, AResumedSearchRunsWhatTheSavedOneWouldHave) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Program program = model::random_program(seed, seed % 2 == 0);
    for (const char* spec : kSpecs)
      for (bool cache : {true, false})
        for (bool unfinished : {false, true}) {
          const std::string what = std::string(spec) + " seed " + std::to_string(seed) +
                                   (cache ? " cached" : "") + (unfinished ? " unfinished" : "");
          const std::uint64_t budget = 400;
          const Search whole = run(spec, cache, program, budget);
          ASSERT_FALSE(whole.executions.empty()) << what;
          // Saved at the start, after the first, at a few points and at the end.
          const std::uint64_t n = whole.executions.size();
          const Search resumed = run(spec, cache, program, budget,
                                     {0, 1, n / 3, n / 2 + 1, n - 1, n}, unfinished);
          expect_same(whole, resumed, what);
        }
  }
}

TEST(Checkpoint, SavedAfterEveryExecutionStillTheSame) {
  const Program program = model::random_program(5, true);
  for (const char* spec : {"dpor", "pb", "dfs"}) {
    const Search whole = run(spec, true, program, 1000);
    std::vector<std::uint64_t> every;
    for (std::uint64_t k = 0; k <= whole.executions.size(); ++k) every.push_back(k);
    expect_same(whole, run(spec, true, program, 1000, every), spec);
  }
}

// Every prefix of a state, and states with words changed at random: refused or loaded,
// never a crash; a loaded one still runs to an end.
TEST(Checkpoint, ADamagedStateIsRefusedOrHarmless) {
  const Program program = model::random_program(4, true);
  model::Executor ex(program);
  Rng rng(3);
  for (const char* spec : kSpecs) {
    auto s = make(spec, true);
    for (int i = 0; i < 7 && s->next_execution(); ++i) ex.run(*s);
    std::vector<std::uint64_t> words;
    s->distribution().save_state(false, &words);
    for (std::size_t cut = 0; cut < words.size(); ++cut)
      EXPECT_FALSE(make(spec, true)->distribution().load_state(std::span(words).first(cut))) << spec << " cut at " << cut;
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<std::uint64_t> bad = words;
      bad[rng.below(bad.size())] = trial % 2 == 0 ? rng.next() : rng.below(8);
      auto t = make(spec, true);
      if (!t->distribution().load_state(bad)) continue;
      for (int i = 0; i < 300 && t->next_execution(); ++i) ex.run(*t);
    }
  }
}

}  // namespace
}  // namespace weft
