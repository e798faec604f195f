// Options::checkpoint (WEFT_CHECKPOINT for WEFT_TEST): weft::explore's search saved as it
// goes and resumed by the next call with the same file. Stopped by its budget again and
// again, it ends with the executions and coverage of the search run in one go.
#include <gtest/gtest.h>
#include <pthread.h>
#include <stdlib.h>
#include <weft/environment.hpp>
#include <weft/weft.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

namespace {

pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
int g_n;

void* add_twice(void*) {
  for (int i = 0; i < 2; ++i) {
    pthread_mutex_lock(&g_m);
    g_n++;
    pthread_mutex_unlock(&g_m);
  }
  return nullptr;
}

// Three threads each add twice under one mutex.
void locked_counter() {
  g_n = 0;
  pthread_t t[3];
  for (pthread_t& x : t) pthread_create(&x, nullptr, add_twice, nullptr);
  for (pthread_t& x : t) pthread_join(x, nullptr);
  WEFT_ASSERT(g_n == 6);
}

class Checkpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("weft-checkpoint-api-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(Checkpoint, BudgetAfterBudgetEndsWithTheTotalsOfOneSearch) {
  for (const char* strategy : {"dpor", "pb:1"}) {
    SCOPED_TRACE(strategy);
    // Without state caching: its states name objects by address, and the heap of a test
    // binary differs from one weft::explore call to the next (weft run lays a program out
    // alike in every run; the totals with state caching are checked there).
    weft::Options o{.strategy = strategy, .executions = 0, .name = "Checkpoint.Counter",
                    .state_cache = false};
    const weft::Result whole = weft::explore(locked_counter, o);
    ASSERT_TRUE(whole.ok()) << whole.report();
    ASSERT_TRUE(whole.complete());
    o.checkpoint = (dir_ / (std::string(strategy) + ".weft-checkpoint")).string();
    o.checkpoint_every_s = 0.01;
    std::optional<weft::Result> part;
    int runs = 0;
    // About six runs, each stopped by its budget (and saved at its end).
    const std::uint64_t step = std::max<std::uint64_t>(7, whole.executions() / 6);
    for (std::uint64_t budget = step; runs < 100; budget += step, ++runs) {
      o.executions = budget;
      part = weft::explore(locked_counter, o);
      ASSERT_TRUE(part->error().empty()) << part->error();
      if (part->complete()) break;
      EXPECT_EQ(part->executions(), budget);
    }
    EXPECT_GT(runs, 1);
    EXPECT_EQ(part->executions(), whole.executions());
    EXPECT_EQ(part->coverage(), whole.coverage());
    // Once complete, the same call says so again without searching.
    const weft::Result again = weft::explore(locked_counter, o);
    EXPECT_TRUE(again.complete());
    EXPECT_EQ(again.executions(), whole.executions());
  }
}

TEST_F(Checkpoint, AnotherSearchsOrADamagedCheckpointIsAnError) {
  weft::Options o{.strategy = "dpor", .executions = 5, .name = "Checkpoint.Counter"};
  o.checkpoint = (dir_ / "c").string();
  ASSERT_TRUE(weft::explore(locked_counter, o).error().empty());
  weft::Options other = o;
  other.strategy = "pb";
  EXPECT_NE(weft::explore(locked_counter, other).error().find(
                "was saved with strategy dpor, this run has strategy pb"),
            std::string::npos);
  other = o;
  other.name = "Checkpoint.Other";
  EXPECT_NE(weft::explore(locked_counter, other).error().find("was saved for another program"),
            std::string::npos);
  other = o;
  other.strategy = "portfolio:pctvb+random";
  other.checkpoint = (dir_ / "p").string();
  EXPECT_NE(weft::explore(locked_counter, other).error().find("cannot save strategy 'portfolio:pctvb+random'"),
            std::string::npos);
  std::filesystem::resize_file(o.checkpoint, 40);
  EXPECT_NE(weft::explore(locked_counter, o).error().find("is refused"), std::string::npos);
  other = o;
  other.checkpoint_every_s = 0;
  EXPECT_NE(weft::explore(locked_counter, other).error().find("checkpoint_every_s"), std::string::npos);
}

TEST_F(Checkpoint, WeftCheckpointNamesADirectoryWithAFilePerTest) {
  setenv("WEFT_CHECKPOINT", dir_.c_str(), 1);
  weft::Options o{.name = "Suite.Name"};
  EXPECT_EQ(weft::apply_environment(o), "");
  EXPECT_EQ(o.checkpoint, (dir_ / "Suite.Name.weft-checkpoint").string());
  setenv("WEFT_CHECKPOINT_EVERY", "0", 1);
  EXPECT_NE(weft::apply_environment(o).find("WEFT_CHECKPOINT_EVERY='0' is not valid"), std::string::npos);
  unsetenv("WEFT_CHECKPOINT_EVERY");
  unsetenv("WEFT_CHECKPOINT");
}

}  // namespace
