#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "records.hpp"

namespace weft {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

// Whatever comes from the program is text on the page: its message, its threads' names,
// its path, its output and the replay command's arguments; the page's own script is the
// only one.
TEST(HtmlReport, EscapesWhatTheProgramPutsOnThePage) {
  RunRecord run = weft_test::lost_update_run();
  run.bugs[0].message = "<script>alert(1)</script>";
  run.bugs[0].thread_names = {"", "<b>one</b>"};
  Symbolizer symbolizer;
  const std::string page = format_html(run, symbolizer,
                                       {"./prog<i>", "weft replay 'a b' -- './prog<i>' '<x>'",
                                        "</pre><script>x()</script> & <!--"});
  EXPECT_EQ(count(page, "<script"), 1u) << page;
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<b>one"), std::string::npos);
  EXPECT_NE(page.find("&lt;b&gt;one&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<i>"), std::string::npos);
  EXPECT_NE(page.find("&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt; &amp; &lt;!--"), std::string::npos);
  EXPECT_NE(page.find("weft replay &#39;a b&#39; -- &#39;./prog&lt;i&gt;&#39; &#39;&lt;x&gt;&#39;"), std::string::npos);
  EXPECT_EQ(page.find("<!--"), std::string::npos) << "no comment opened anywhere";
}

TEST(HtmlReport, NoBugNoPage) {
  RunRecord run;
  Symbolizer symbolizer;
  EXPECT_EQ(format_html(run, symbolizer, {}), "");
}

}  // namespace
}  // namespace weft
