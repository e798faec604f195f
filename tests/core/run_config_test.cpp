// The one table of run options (core/run_config.def): the file weft run hands its fork
// server reads back what was written, strictly, and the lists schedules and checkpoints
// record come from the table.
#include "core/run_config.hpp"

#include <gtest/gtest.h>

#include <string>

namespace weft {
namespace {

RunConfig unusual() {
  RunConfig c;
  c.races = "report";
  c.preempt_on = "all";
  c.no_preempt_in = "libfoo.so,bar*";
  c.explore_timeouts = true;
  c.steps = 77;
  c.no_fair = true;
  c.expect_exit = "any";
  c.check_output = "out\\dir\nwith a newline=and equals";
  c.strategy = "pct:3";
  c.seed = 18446744073709551615ull;
  c.time_s = 0.000001;
  c.jobs_worker = 255;
  c.run_shard = "3/8";
  return c;
}

TEST(RunConfig, TheFileReadsBackWhatWasWritten) {
  const RunConfig c = unusual();
  RunConfig back;
  ASSERT_EQ(decode_run_config(encode_run_config(c), &back), "");
  EXPECT_EQ(encode_run_config(back), encode_run_config(c));
  EXPECT_EQ(back.check_output, c.check_output);
  EXPECT_EQ(back.seed, c.seed);
  EXPECT_EQ(back.time_s, c.time_s);
  EXPECT_TRUE(back.no_fair);
  EXPECT_EQ(encode_run_config(RunConfig{}), "");  // the defaults are the reader's too
  EXPECT_EQ(encode_run_config(RunConfig{.steps = 9}), "steps=9\n");
}

TEST(RunConfig, AFieldLeftOutKeepsItsDefault) {
  RunConfig c;
  ASSERT_EQ(decode_run_config("steps=5\n", &c), "");
  EXPECT_EQ(c.steps, 5u);
  EXPECT_EQ(c.strategy, "portfolio");
  EXPECT_EQ(c.executions, 1000u);
}

TEST(RunConfig, EveryBadLineIsNamed) {
  const struct {
    const char* text;
    const char* error;
  } bad[] = {
      {"steps=0\n", "line 1: steps='0' is not valid: give a whole number from 1 to 50000000"},
      {"steps=1\nsteps=2\n", "line 2: steps is given twice"},
      {"nosuch=1\n", "line 1: 'nosuch' is not an option this weft takes"},
      {"steps\n", "line 1: not field=value"},
      {"mode=debug\n", "line 1: mode='debug' is not valid: give run, replay or minimize"},
      {"preempt_on=some\n", "line 1: preempt_on='some' is not valid: give sync, racy or all"},
      {"no_preempt_in=a,,b\n", "line 1: no_preempt_in='a,,b' is not valid: give PATTERN"},
      {"real_time=true\n", "line 1: real_time='true' is not valid: give yes or no"},
      {"lifeline_fd=-1\n", "line 1: lifeline_fd='-1' is not valid: give a file descriptor's number"},
      {"columns=100000\n", "line 1: columns='100000' is not valid: give a number of columns"},
      {"check_output=a\\tb\n", "line 1: not field=value"},
      {"checkpoint_options=--seed\n", "line 1: checkpoint_options='--seed' is not valid"},
  };
  for (const auto& b : bad) {
    RunConfig c;
    const std::string e = decode_run_config(b.text, &c);
    EXPECT_EQ(e.rfind(b.error, 0), 0u) << b.text << " gave: " << e;
  }
}

TEST(RunConfig, ASchedulesOptionsAreThoseNotAtTheirDefaultInTheTablesOrder) {
  EXPECT_TRUE(execution_options(RunConfig{}).empty());
  RunConfig zero_exit;
  zero_exit.expect_exit = "0";
  EXPECT_TRUE(execution_options(zero_exit).empty());
  const OptionList o = execution_options(unusual());
  const OptionList expected = {{"races", "report"},         {"preempt-on", "all"},
                               {"no-preempt-in", "libfoo.so,bar*"}, {"explore-timeouts", "yes"},
                               {"steps", "77"},             {"no-fair", "yes"},
                               {"expect-exit", "any"},
                               {"check-output", "out\\dir\nwith a newline=and equals"}};
  EXPECT_EQ(o, expected);
}

TEST(RunConfig, AReplayTakesBackEveryRecordedOption) {
  RunConfig back;
  for (const auto& [name, value] : execution_options(unusual()))
    EXPECT_EQ(set_execution_option(name, value, &back), "") << name;
  EXPECT_EQ(execution_options(back), execution_options(unusual()));
  RunConfig c;
  EXPECT_NE(set_execution_option("real-time", "no", &c), "");  // a flag is recorded set
  EXPECT_NE(set_execution_option("steps", "0", &c), "");
  EXPECT_NE(set_execution_option("seed", "1", &c), "");  // shapes the search, not an execution
  EXPECT_NE(set_execution_option("races", "maybe", &c), "");
  EXPECT_TRUE(is_execution_flag("real-time"));
  EXPECT_FALSE(is_execution_flag("steps"));
  EXPECT_FALSE(is_execution_flag("keep-going"));
  EXPECT_EQ(execution_option_names().front(), "races");
}

TEST(RunConfig, ACheckpointRecordsEveryOptionThatShapesTheSearch) {
  const OptionList o = search_options(unusual());
  auto value = [&](const std::string& name) -> std::string {
    for (const auto& [n, v] : o)
      if (n == name) return v;
    return "(missing)";
  };
  EXPECT_EQ(o.size(), 12u);
  EXPECT_EQ(value("--strategy"), "pct:3");
  EXPECT_EQ(value("--seed"), "18446744073709551615");
  EXPECT_EQ(value("--bound"), "");
  EXPECT_EQ(value("--no-fair"), "yes");
  EXPECT_EQ(value("--real-time"), "no");
  EXPECT_EQ(value("--no-state-cache"), "no");
  EXPECT_EQ(value("--steps"), "77");
  EXPECT_EQ(value("--executions"), "(missing)");  // the budget may change between runs
  EXPECT_EQ(value("--expect-exit"), "(missing)");
}

}  // namespace
}  // namespace weft
