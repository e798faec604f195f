// weft replay without remembering options (issue #26, 5): a schedule weft run writes
// (weft3) records the options that shaped its execution, and the replay uses them; the
// schedule itself may be given instead of its file; a long one replays; an option given
// on the command line that differs from the recorded one is refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

class Replay : public weft::test::TempDirTest {
 protected:
  Output weft(const std::string& args) {
    return sh("cd " + dir_.string() + " && " + kBin + "/weft " + args);
  }
  std::string schedule(const std::string& file) {
    std::ifstream in(dir_ / file);
    std::string line;
    std::getline(in, line);
    return line;
  }
  // `args` refused: exit 2, one line saying `says`.
  void refused(const std::string& args, const std::string& says) {
    const Output o = weft(args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_TRUE(o.has(says)) << args << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << "one line\n" << o.out;
  }
};

// Found with races reported (the lost update's assertion, not the race, is the bug) and
// racy accesses as scheduling points: replayed with no option at all, the same bug, where
// the default (races fail) would show the race instead.
TEST_F(Replay, TheRecordedOptionsReplayWithoutRepeatingThem) {
  const std::string program = kBin + "/cli_race_leads_to";
  const Output found = weft("run --races report --preempt-on racy -s random --jobs 1 -- " + program + " bug");
  ASSERT_EQ(found.status, 1) << found.out;
  ASSERT_TRUE(found.has("bug: assertion")) << found.out;
  EXPECT_TRUE(found.has("replay it with: weft replay cli_race_leads_to.weft-schedule -- " + program))
      << "a hint with no option\n" << found.out;
  const std::string text = schedule("cli_race_leads_to.weft-schedule");
  EXPECT_EQ(text.rfind("weft3.", 0), 0u) << text;
  EXPECT_NE(text.find(".races=report,preempt-on=racy."), std::string::npos) << text;

  for (const std::string& given : {std::string("cli_race_leads_to.weft-schedule"), "'" + text + "'"}) {
    SCOPED_TRACE(given.substr(0, 40));
    const Output replayed = weft("replay " + given + " -- " + program + " bug");
    EXPECT_EQ(replayed.status, 1) << replayed.out;
    EXPECT_TRUE(replayed.has("bug: assertion")) << replayed.out;
    EXPECT_FALSE(replayed.has("bug: data-race")) << replayed.out;
  }
  // The recorded value given again is no conflict.
  EXPECT_EQ(weft("replay cli_race_leads_to.weft-schedule --races report -- " + program + " bug").status, 1);
}

// A value that differs from the recorded one would replay another execution: refused,
// naming the option, the recorded value and the given one.
TEST_F(Replay, AConflictingOptionIsRefusedInOneLine) {
  const std::string program = kBin + "/cli_race_leads_to";
  ASSERT_EQ(weft("run -q --races report -s random --jobs 1 -- " + program + " bug").status, 1);
  const std::string file = "cli_race_leads_to.weft-schedule";
  refused("replay " + file + " --races fail -- " + program + " bug",
          "weft: the schedule was recorded with --races report, this command gives --races fail: "
          "leave --races out to replay the recorded execution");
  refused("replay " + file + " --real-time -- " + program + " bug",
          "the schedule was recorded with no --real-time (the default), this command gives --real-time");
  refused("replay " + file + " --steps 10 -- " + program + " bug",
          "recorded with no --steps (the default), this command gives --steps 10");
  refused("minimize " + file + " --races off -- " + program + " bug",
          "recorded with --races report, this command gives --races off");
}

// A livelock found within --steps 5000 replays within 5000 steps: past them the schedule
// would have ended while the execution went on.
TEST_F(Replay, TheStepBoundIsRecorded) {
  const std::string program = kBin + "/cli_two_spinners";
  ASSERT_EQ(weft("run -q --steps 5000 -s random --jobs 1 -- " + program).status, 1);
  EXPECT_NE(schedule("cli_two_spinners.weft-schedule").find(".steps=5000."), std::string::npos);
  const Output replayed = weft("replay cli_two_spinners.weft-schedule -- " + program);
  EXPECT_EQ(replayed.status, 1) << replayed.out.substr(0, 2000);
  EXPECT_TRUE(replayed.has("bug: livelock")) << replayed.out.substr(0, 2000);
}

// A schedule longer than an environment string may be (128 KiB) replays: it never travels
// in one.
TEST_F(Replay, AScheduleOfAnyLengthReplays) {
  const std::string program = kBin + "/cli_two_spinners";
  ASSERT_EQ(weft("run -q -s random --jobs 1 -- " + program).status, 1);
  ASSERT_GT(fs::file_size(dir_ / "cli_two_spinners.weft-schedule"), 128u * 1024);
  const Output replayed = weft("replay cli_two_spinners.weft-schedule -- " + program);
  EXPECT_EQ(replayed.status, 1) << replayed.out.substr(0, 2000);
  EXPECT_TRUE(replayed.has("bug: livelock")) << replayed.out.substr(0, 2000);
}

// Neither a file nor a schedule; a schedule string that is damaged: one line, exit 2.
TEST_F(Replay, BadSchedulesAreRefusedInOneLine) {
  const std::string program = " -- " + kBin + "/cli_deadlock";
  refused("replay no-such-file" + program,
          "schedule file 'no-such-file' not found (give the file weft run wrote, or the schedule itself");
  refused("replay weft3.0123.x" + program, "weft: invalid schedule: it has 3 dot-separated fields");
  ASSERT_EQ(weft("run -q -s dfs -n 0 -- " + kBin + "/cli_deadlock").status, 1);
  std::string text = schedule("cli_deadlock.weft-schedule");
  text[text.size() - 12] = text[text.size() - 12] == '1' ? '0' : '1';
  refused("replay '" + text + "'" + program, "invalid schedule: the check does not match");
}

}  // namespace
