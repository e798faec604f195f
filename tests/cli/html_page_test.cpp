// weft run --html: the page tells the whole story (issue #26), checked in the DOM that
// headless chromium builds from it, scripts run: a deadlock's blocked threads and their
// cycle, an assertion's file and line, a race's two accesses in their threads' lanes, the
// races seen, the failing execution's output and the command that replays it; and
// everything the program puts on the page (output, names, messages) escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/headless_chromium.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;
const std::string kPrograms = WEFT_PROGRAMS_DIR;

using weft::test::HeadlessChromium;
using weft::test::Output;
using weft::test::sh;

// The text of a DOM's markup: the entities chromium writes in text nodes undone.
std::string text_of(std::string s) {
  s = std::regex_replace(s, std::regex("<[^>]*>"), "");
  for (const auto& [entity, c] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", " "}, {"&amp;", "&"}})
    for (std::size_t p = s.find(entity); p != std::string::npos; p = s.find(entity, p + 1))
      s.replace(p, entity.size(), c);
  return s;
}

// The markup from the element whose opening tag holds `attribute` to the first `end` after it.
std::string element(const std::string& dom, const std::string& attribute, const std::string& end) {
  const std::size_t at = dom.find(attribute);
  if (at == std::string::npos) return "";
  const std::size_t open = dom.rfind('<', at);
  const std::size_t close = dom.find(end, at);
  return dom.substr(open, close == std::string::npos ? std::string::npos : close + end.size() - open);
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

// Every value of `attribute` in the opening tags that match `tag` (a regex).
std::vector<std::string> attributes(const std::string& dom, const std::string& tag, const std::string& attribute) {
  std::vector<std::string> out;
  const std::regex opening(tag);
  const std::regex value(attribute + "=\"([^\"]*)\"");
  for (std::sregex_iterator it(dom.begin(), dom.end(), opening), end; it != end; ++it) {
    std::smatch v;
    const std::string t = it->str();
    if (std::regex_search(t, v, value)) out.push_back(v[1]);
  }
  return out;
}

// The line of `file` that holds `text` (1-based; 0: none).
int line_of(const std::string& file, const std::string& text) {
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (++n, line.find(text) != std::string::npos) return n;
  return 0;
}

class HtmlPage : public weft::test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    if (!HeadlessChromium::available())
      GTEST_FAIL() << "no " << HeadlessChromium::kPath << ": scripts/install-deps.sh installs chromium";
  }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }

  // weft run ARGS --html page.html -- PROGRAM in the test's directory (a bug: status 1),
  // then the page's DOM as chromium builds it.
  std::string page_of(const std::string& args, const std::string& program, const std::string& input = "") {
    const Output o = sh("cd " + dir_.string() + " && " + kBin + "/weft run " + args + " --html " +
                        at("page.html") + " -- " + program + " < " + (input.empty() ? "/dev/null" : input));
    EXPECT_EQ(o.status, 1) << o.out;
    const HeadlessChromium::Result dom = HeadlessChromium::dump_dom(at("page.html"));
    EXPECT_TRUE(dom.ok) << dom.error;
    EXPECT_NE(dom.out.find("data-ready=\"true\""), std::string::npos) << "the page's script did not run";
    return dom.out;
  }

  // The replay command the page shows, run as a shell would (weft from the build): it must
  // show the bug again.
  void replays(const std::string& dom, const std::string& expected_command) {
    const std::string command = text_of(element(dom, "id=\"replay-command\"", "</code>"));
    EXPECT_EQ(command, expected_command);
    ASSERT_TRUE(command.starts_with("weft replay ")) << command;
    const Output again = sh("cd " + dir_.string() + " && " + kBin + "/" + command + " < /dev/null");
    EXPECT_EQ(again.status, 1) << command << "\n" << again.out;
  }
};

TEST_F(HtmlPage, ADeadlockShowsItsBlockedThreadsTheirCycleTheOutputAndTheReplayCommand) {
  const std::string program = kBin + "/cli_deadlock";
  const std::string dom = page_of("-s dpor --schedule-out " + at("dl.sched"), program);
  const std::string blocked = element(dom, "id=\"blocked\"", "</table>");
  EXPECT_EQ(count(blocked, "class=\"blocked-thread\""), 3u) << "main joins, T1 and T2 lock: " << blocked;
  EXPECT_NE(text_of(blocked).find("thread-join T1"), std::string::npos) << blocked;
  EXPECT_NE(blocked.find("mutex-lock"), std::string::npos) << blocked;
  EXPECT_NE(blocked.find("deadlock.c:"), std::string::npos) << blocked;
  EXPECT_NE(text_of(blocked).find("waits for T1"), std::string::npos) << blocked;
  EXPECT_NE(text_of(blocked).find("waits for T2"), std::string::npos) << blocked;
  // The cycle, thread by thread, back to the first.
  const std::string cycle = element(dom, "id=\"cycle\"", "</p>");
  EXPECT_EQ(attributes(cycle, "<span class=\"cycle-thread\"[^>]*>", "data-thread"),
            (std::vector<std::string>{"1", "2", "1"})) << cycle;
  EXPECT_EQ(text_of(cycle), "cycle: T1 waits for T2 waits for T1") << cycle;
  EXPECT_NE(text_of(element(dom, "id=\"output\"", "</pre>")).find("deadlock: starting"), std::string::npos)
      << dom;
  replays(dom, "weft replay " + at("dl.sched") + " -- " + program);
}

TEST_F(HtmlPage, AnAssertionShowsItsFileAndLine) {
  const std::string program = kBin + "/cli_assert_order";
  const std::string dom = page_of("-s dfs --schedule-out " + at("as.sched"), program);
  const int line = line_of(kPrograms + "/assert_order.c", "assert(v == 42)");
  ASSERT_GT(line, 0);
  const std::string where = text_of(element(dom, "id=\"bug-location\"", "</p>"));
  EXPECT_NE(where.find("assert_order.c:" + std::to_string(line)), std::string::npos) << where;
  EXPECT_NE(where.find("check_value"), std::string::npos) << where;
  EXPECT_NE(where.find("assert(v == 42)"), std::string::npos) << "the source line: " << where;
  EXPECT_NE(dom.find("id=\"no-output\""), std::string::npos) << "it prints nothing";
  replays(dom, "weft replay " + at("as.sched") + " -- " + program);
}

// Each racing access is a box in its own thread's lane, marked, and named above the lanes.
TEST_F(HtmlPage, ARaceShowsBothAccessesInTheirLanes) {
  const std::string program = kBin + "/cli_lost_update_exit";
  const std::string dom = page_of("-s dfs --schedule-out " + at("r.sched"), program);
  const std::string race = element(dom, "id=\"race\"", "</p>");
  const std::vector<std::string> named = attributes(race, "<span class=\"race-access\"[^>]*>", "data-thread");
  ASSERT_EQ(named.size(), 2u) << race;
  EXPECT_NE(named[0], named[1]) << "two threads race";
  EXPECT_EQ(count(text_of(race), "lost_update_exit.c:"), 2u) << race;
  const std::vector<std::string> boxes = attributes(dom, "<div [^>]*class=\"step[^\"]* race[ \"][^>]*>", "data-thread");
  EXPECT_EQ(std::set<std::string>(boxes.begin(), boxes.end()), std::set<std::string>(named.begin(), named.end()))
      << "the racing steps, in the lanes of the racing threads";
  EXPECT_EQ(boxes.size(), 2u);
  // The first execution finds it before plain accesses are scheduling points: both are
  // boxes after the steps, in their lanes.
  EXPECT_EQ(count(dom, "class=\"step race unscheduled\""), 2u);
  EXPECT_NE(text_of(element(dom, "id=\"races\"", "</div>")).find("the race above is the bug"), std::string::npos);
  // A screenshot, kept as the test's artifact.
  fs::create_directories(WEFT_ARTIFACT_DIR);
  const std::string png = std::string(WEFT_ARTIFACT_DIR) + "/html_race_page.png";
  fs::remove(png);
  const HeadlessChromium::Result shot = HeadlessChromium::screenshot(at("page.html"), png, 1200, 1600);
  ASSERT_TRUE(shot.ok) << shot.error;
  std::ifstream image(png, std::ios::binary);
  char magic[8] = {};
  image.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG") << "no screenshot at " << png;
}

// --races=report: the bug is the exit status, the races are listed with their schedules.
TEST_F(HtmlPage, TheRacesSeenAreListed) {
  const std::string program = kBin + "/cli_lost_update_exit";
  const std::string dom = page_of("-s dfs --races=report", program);
  const std::string races = element(dom, "id=\"races\"", "</div>");
  EXPECT_GE(count(races, "class=\"race-access\""), 2u) << races;
  EXPECT_NE(text_of(races).find("found in execution"), std::string::npos) << races;
  EXPECT_NE(text_of(races).find("schedule: weft"), std::string::npos) << races;
  EXPECT_NE(text_of(element(dom, "id=\"output\"", "</pre>")).find("argc=1"), std::string::npos);
}

// Markup in the output, a thread's name, a function's name and an assertion's message is
// text on the page, never elements; a script in the output never runs.
TEST_F(HtmlPage, WhatTheProgramPutsOnThePageIsEscaped) {
  const std::string program = kBin + "/cli_html_hostile";
  const std::string dom = page_of("-s dfs", program);
  for (const char* element : {"<b id=\"from-output\"", "<b id=\"from-assert\"", "<i id=\"tn\"", "<title>injected"})
    EXPECT_EQ(dom.find(element), std::string::npos) << "injected: " << element;
  EXPECT_NE(dom.find("<title>weft: assertion in "), std::string::npos);
  EXPECT_NE(dom.find("&lt;b id=from-output&gt;bold&lt;/b&gt; &amp; more"), std::string::npos) << "the output";
  EXPECT_NE(dom.find("&lt;script&gt;document.title='injected'&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(dom.find("&lt;b id=from-assert&gt;"), std::string::npos) << "the message";
  EXPECT_NE(dom.find("&lt;i id=tn&gt;"), std::string::npos) << "the thread's name";
  EXPECT_NE(dom.find("check&lt;Tag&lt;int&gt;"), std::string::npos) << "the function's name";
  // The steps' details, kept for the script as JSON: no markup there either.
  std::ifstream in(at("page.html"));
  const std::string html((std::istreambuf_iterator<char>(in)), {});
  const std::size_t script = html.find("const WEFT = ");
  ASSERT_NE(script, std::string::npos);
  const std::string data = html.substr(script, html.find(";\n", script) - script);
  EXPECT_EQ(data.find('<'), std::string::npos) << data.substr(0, 2000);
}

}  // namespace
