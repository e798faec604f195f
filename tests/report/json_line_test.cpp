// JsonLine writes what nlohmann's compact dump of the same object writes: the long traces'
// steps (JSON result, trace events, the HTML page's script) are written with it.
#include "report/json_line.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace weft {
namespace {

using ojson = nlohmann::ordered_json;

std::string dumped(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

TEST(JsonLine, WritesWhatNlohmannsCompactDumpWrites) {
  std::string out;
  JsonLine(&out)
      .field("step", std::uint64_t{18446744073709551615u})
      .field("thread", 3u)
      .field("signed", -42)
      .field("preemption", true)
      .field("racing", false)
      .field("op", "atomic-load")
      .field("function", std::string("std::vector<int>::push_back(int&&)"))
      .field("empty", "");
  EXPECT_EQ(out, dumped({{"step", std::numeric_limits<std::uint64_t>::max()},
                         {"thread", 3u},
                         {"signed", -42},
                         {"preemption", true},
                         {"racing", false},
                         {"op", "atomic-load"},
                         {"function", "std::vector<int>::push_back(int&&)"},
                         {"empty", ""}}));
}

// Quotes, backslashes, control characters, UTF-8, invalid bytes (replaced): as nlohmann.
TEST(JsonLine, EscapesStringsAsNlohmannDoes) {
  for (const std::string& s : {std::string("say \"hi\"\\n"), std::string("tab\there\nnew line"),
                              std::string("\x01\x1f\x7f", 3), std::string("caf\xc3\xa9 \xe2\x9c\x96"),
                              std::string("bad \xff\xfe byte"), std::string("<script>&</script>")}) {
    std::string out;
    JsonLine(&out).field(s, s);
    EXPECT_EQ(out, dumped({{s, s}})) << s;
    EXPECT_FALSE(ojson::parse(out, nullptr, false).is_discarded()) << out;
  }
}

TEST(JsonLine, NestsObjectsWrittenApart) {
  std::string args, out;
  JsonLine(&args).field("name", "T1");
  JsonLine(&out).field("ph", "M").raw("args", args);
  EXPECT_EQ(out, dumped({{"ph", "M"}, {"args", {{"name", "T1"}}}}));
  std::string empty;
  { JsonLine e(&empty); }
  EXPECT_EQ(empty, "{}");
}

}  // namespace
}  // namespace weft
