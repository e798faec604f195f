// Text that fits a terminal (issue #26 item 4): shortened names and paths, wrapped lines,
// and whole reports within a width.
#include "report/text_width.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "records.hpp"
#include "report/text_report.hpp"

namespace weft {
namespace {

std::size_t longest_line(const std::string& text) {
  std::istringstream in(text);
  std::size_t most = 0;
  for (std::string line; std::getline(in, line);) most = std::max(most, visible_width(line));
  return most;
}

TEST(TextWidth, NamesLoseTheirParameterListsThenTheirMiddle) {
  const std::string lambda =
      "std::_Function_handler<void (), main::{lambda(int, std::vector<int, std::allocator<int> > "
      "const&)#1}>::_M_invoke(std::_Any_data const&)";
  EXPECT_EQ(shorten_name(lambda, 200), lambda) << "short enough: as it is";
  EXPECT_EQ(shorten_name(lambda, 90),
            "std::_Function_handler<void (), main::{lambda()#1}>::_M_invoke(std::_Any_data const&)");
  EXPECT_EQ(shorten_name(lambda, 70), "std::_Function_handler<...>::_M_invoke(std::_Any_data const&)");
  EXPECT_EQ(shorten_name(lambda, 45), "std::_Function_handler<...>::_M_invoke(...)");
  const std::string cut = shorten_name(lambda, 30);
  EXPECT_LE(cut.size(), 30u);
  EXPECT_EQ(cut, "...::_M_invoke(...)") << "its qualifiers give way first";
  EXPECT_TRUE(cut.ends_with("_M_invoke(...)")) << cut << ": the tail is the function";
  EXPECT_EQ(shorten_name("operator<<(std::ostream&, int)", 20), "operator<<(...)");
}

TEST(TextWidth, PathsKeepTheirFileAndLine) {
  EXPECT_EQ(shorten_path("/work/main/tests/cli/programs/lost_wakeup.c:20", 100),
            "/work/main/tests/cli/programs/lost_wakeup.c:20");
  EXPECT_EQ(shorten_path("/work/main/tests/cli/programs/lost_wakeup.c:20", 30), ".../programs/lost_wakeup.c:20");
  EXPECT_EQ(shorten_path("/work/main/tests/cli/programs/lost_wakeup.c:20", 10), ".../lost_wakeup.c:20");
}

TEST(TextWidth, LinesWrapAtSpacesWithAHangingIndent) {
  EXPECT_EQ(wrap_line("coverage: one two three four", 15), "coverage: one\n  two three\n  four");
  EXPECT_EQ(wrap_line("  a bb ccc", 100), "  a bb ccc");
  EXPECT_EQ(wrap_line("schedule: 0123456789abcdef", 12), "schedule:\n  0123456789\n  abcdef");
  EXPECT_EQ(fit_lines("x y z w\nshort\n", 5), "x y z\n  w\nshort\n");
  EXPECT_EQ(wrap_line("x y z", 3), "x y\n z") << "the hang: at most half the width";
  // Colour escapes take no room.
  EXPECT_EQ(wrap_line("\x1b[1mbold\x1b[0m word", 9), "\x1b[1mbold\x1b[0m word");
}

TEST(TextWidth, PerWorkerCoverageDetailsOnTheirOwnLines) {
  const auto lines = coverage_lines(
      "coverage: dfs, 2 of 2 workers: 6 executions [worker 0: dfs: 5 executions [a]] "
      "[worker 1: dfs: 1 executions]; not complete");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "coverage: dfs, 2 of 2 workers: 6 executions; not complete");
  EXPECT_EQ(lines[1], "  worker 0: dfs: 5 executions [a]");
  EXPECT_EQ(lines[2], "  worker 1: dfs: 1 executions");
}

// Every line of a report within the width, tables and all.
TEST(TextWidth, AReportFitsItsWidth) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  run.bugs[0].message = std::string(150, 'm');
  run.bugs[0].schedule = std::string(300, 's');
  run.coverage.summary = "a coverage summary long enough to wrap: " + std::string(20, 'c') +
                         " words words words words words words words words words words";
  for (std::size_t width : {60u, 80u, 120u}) {
    TextOptions options;
    options.width = width;
    const std::string text = format_text(run, sym, options);
    EXPECT_LE(longest_line(text), width) << text;
    EXPECT_NE(text.find("sites.cpp:"), std::string::npos) << "the file stays: " << text;
  }
  TextOptions unlimited;
  unlimited.width = 0;
  EXPECT_GT(longest_line(format_text(run, sym, unlimited)), 150u);
}

}  // namespace
}  // namespace weft
