#include "core/schedule.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace weft {
namespace {

Schedule sample() {
  Schedule s;
  s.fingerprint = 0x0123456789abcdefull;
  s.strategy = "pct:3";
  s.seed = 42;
  for (int i = 0; i < 12; ++i) s.decisions.push_back({Decision::kThread, 0});
  s.decisions.push_back({Decision::kThread, 1});
  s.decisions.push_back({Decision::kValue, 2});
  s.decisions.push_back({Decision::kValue, 2});
  for (int i = 0; i < 3; ++i) s.decisions.push_back({Decision::kThread, 2});
  return s;
}

TEST(Schedule, RoundTrips) {
  const Schedule s = sample();
  const std::string text = encode_schedule(s);
  EXPECT_EQ(text.rfind("weft1.0123456789abcdef.pct:3.42.0x12,1,v2,v2,2x3.", 0), 0u) << text;
  Schedule back;
  std::string error;
  ASSERT_TRUE(decode_schedule(text, &back, &error)) << error;
  EXPECT_EQ(back, s);
}

TEST(Schedule, RoundTripsOddStrategyNamesAndEmptySchedules) {
  Schedule s;
  s.strategy = "bf:method=a.b,c%d e";
  const std::string text = encode_schedule(s);
  Schedule back;
  std::string error;
  ASSERT_TRUE(decode_schedule(text, &back, &error)) << error;
  EXPECT_EQ(back, s);
  // Surrounding whitespace from a copy-paste is fine.
  ASSERT_TRUE(decode_schedule("  " + text + "\n", &back, &error)) << error;
}

TEST(Schedule, ExtraSchedulingPointsMakeAWeft2Schedule) {
  Schedule s = sample();
  s.points = {"+1a2f", "libqueue.so.1+ff0"};
  const std::string text = encode_schedule(s);
  EXPECT_EQ(text.rfind("weft2.0123456789abcdef.pct:3.42.+1a2f,libqueue%2Eso%2E1+ff0.0x12,", 0), 0u)
      << text;
  Schedule back;
  std::string error;
  ASSERT_TRUE(decode_schedule(text, &back, &error)) << error;
  EXPECT_EQ(back, s);
  // A point whose module's path has a comma stays one point (fuzz/schedule_decoder_fuzz.cpp
  // found it read back as two).
  s.points = {"/opt/a,b/libq.so+10", "+1a2f"};
  const std::string comma = encode_schedule(s);
  EXPECT_NE(comma.find("./opt/a%2Cb/libq%2Eso+10,+1a2f."), std::string::npos) << comma;
  ASSERT_TRUE(decode_schedule(comma, &back, &error)) << error;
  EXPECT_EQ(back, s);
  // A weft2 schedule with an empty point, or missing its points field, is malformed.
  EXPECT_FALSE(decode_schedule("weft2.0123456789abcdef.x.1.,+1.0.00000000", &back, &error));
  EXPECT_NE(error.find("invalid schedule"), std::string::npos) << error;
  const std::string no_points = encode_schedule(sample());
  EXPECT_FALSE(decode_schedule("weft2" + no_points.substr(5), &back, &error));
  EXPECT_NE(error.find("not 7"), std::string::npos) << error;
}

// weft3 names the options that shaped the execution (issue #26, 5): a replay needs none.
TEST(Schedule, Weft3RecordsTheOptionsOfItsExecution) {
  Schedule s = sample();
  s.records_options = true;
  s.options = {{"races", "report"}, {"no-preempt-in", "a,b=c.d e%"}, {"steps", "500"}};
  const std::string text = encode_schedule(s);
  EXPECT_EQ(text.rfind("weft3.0123456789abcdef.pct:3.42.races=report,"
                       "no-preempt-in=a%2Cb%3Dc%2Ed%20e%25,steps=500..0x12,", 0), 0u)
      << text;
  Schedule back;
  std::string error;
  ASSERT_TRUE(decode_schedule(text, &back, &error)) << error;
  EXPECT_EQ(back, s);
  EXPECT_EQ(recorded_step_bound(text, 7), 500u);
  EXPECT_EQ(recorded_step_bound(encode_schedule(sample()), 7), 7u) << "weft1 records none";
  // No option (all at their defaults) and points: both fields there, empty or not.
  s.options.clear();
  s.points = {"+1a2f"};
  const std::string none = encode_schedule(s);
  EXPECT_EQ(none.rfind("weft3.0123456789abcdef.pct:3.42..+1a2f.0x12,", 0), 0u) << none;
  ASSERT_TRUE(decode_schedule(none, &back, &error)) << error;
  EXPECT_EQ(back, s);
  // An item without '=' or with an empty name is refused, in one line.
  for (const std::string& bad : {std::string("races"), std::string("=x"), std::string("a=1,,b=2")}) {
    const std::string body = "weft3.0123456789abcdef.pct:3.42." + bad + "..0";
    char check[9];
    std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(fnv1a64(body)));
    EXPECT_FALSE(decode_schedule(body + "." + check, &back, &error)) << bad;
    EXPECT_NE(error.find("the options field"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(Schedule, RejectsMalformedInputWithOneLineErrors) {
  const std::string good = encode_schedule(sample());
  std::string error;
  Schedule out;
  for (const std::string& bad :
       {std::string(""), std::string("hello"), good.substr(0, good.size() - 3),
        good.substr(0, good.size() / 2), std::string("weft9.x"),
        good.substr(0, 30) + "9" + good.substr(31)}) {
    error.clear();
    EXPECT_FALSE(decode_schedule(bad, &out, &error)) << bad;
    EXPECT_NE(error.find("invalid schedule"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_FALSE(decode_schedule("weft9.0.x.1..0", &out, &error));
  EXPECT_NE(error.find("unsupported version"), std::string::npos) << error;
}

// The text a refusal quotes keeps it one line: a CR in the middle of a schedule file's
// line, or a line break in WEFT_SCHEDULE, is shown escaped (fuzz/schedule_decoder_fuzz.cpp
// found the CR).
TEST(Schedule, RefusalsQuoteControlCharactersEscaped) {
  const std::string good = encode_schedule(sample());
  Schedule out;
  std::string error;
  const std::string cr = good.substr(0, good.size() - 4) + "\r" + good.substr(good.size() - 3);
  EXPECT_FALSE(decode_schedule(cr, &out, &error));
  EXPECT_EQ(error.find('\r'), std::string::npos) << error;
  EXPECT_NE(error.find("the check field '"+ good.substr(good.size() - 8, 4) + "\\x0d"),
            std::string::npos)
      << error;
  EXPECT_FALSE(decode_schedule("weft1.0123456789abcdef.pct:3.4.0.0000\n000", &out, &error));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_NE(error.find("'0000\\x0a000'"), std::string::npos) << error;
}

TEST(Schedule, DetectsEditedDecisions) {
  std::string text = encode_schedule(sample());
  auto pos = text.find("0x12");
  text[pos + 3] = '3';  // 0x13: the check no longer matches
  Schedule out;
  std::string error;
  EXPECT_FALSE(decode_schedule(text, &out, &error));
  EXPECT_NE(error.find("check"), std::string::npos) << error;
}

// A schedule's body with its check: anyone can compute it, so it guards against typos and
// truncation, not against a hostile schedule.
std::string signed_schedule(const std::string& body) {
  char check[9];
  std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(fnv1a64(body)));
  return body + "." + check;
}

// 50 bytes once decoded into 2^30 decisions (8 GiB): the decisions are counted against a
// limit as they are decoded, the repeat counts included.
TEST(Schedule, RefusesMoreDecisionsThanTheLimitBeforeMakingThem) {
  Schedule out;
  std::string error;
  const std::string hostile = signed_schedule("weft1.0123456789abcdef.pb.1.0x1073741824");
  EXPECT_FALSE(decode_schedule(hostile, &out, &error));
  EXPECT_NE(error.find("invalid schedule: it holds more than " +
                       std::to_string(max_decisions_for(kDefaultMaxSteps)) + " decisions"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_TRUE(out.decisions.empty());

  // Each run below the limit, their sum above it; exactly the limit is accepted.
  const std::string three_runs = signed_schedule("weft1.0123456789abcdef.pb.1.0x500,1x500,v1,0x25");
  EXPECT_FALSE(decode_schedule(three_runs, &out, &error, 1025)) << "1026 decisions";
  EXPECT_NE(error.find("more than 1025 decisions"), std::string::npos) << error;
  ASSERT_TRUE(decode_schedule(three_runs, &out, &error, 1026)) << error;
  EXPECT_EQ(out.decisions.size(), 1026u);
}

// The limit is the capacity of an execution's decision buffer, which a schedule weft
// recorded never exceeds; it saturates rather than wrapping for absurd step bounds.
TEST(Schedule, TheDecisionLimitFollowsTheStepBound) {
  EXPECT_GE(max_decisions_for(kDefaultMaxSteps), 2 * kDefaultMaxSteps);
  EXPECT_LT(max_decisions_for(kDefaultMaxSteps), max_decisions_for(kDefaultMaxSteps + 1));
  EXPECT_EQ(max_decisions_for(~std::uint64_t{0}), ~std::uint64_t{0});
  EXPECT_EQ(max_decisions_for(~std::uint64_t{0} / 2), ~std::uint64_t{0});
  Schedule s = sample();
  s.decisions.assign(max_decisions_for(10), Decision{Decision::kThread, 1});
  Schedule back;
  std::string error;
  ASSERT_TRUE(decode_schedule(encode_schedule(s), &back, &error, max_decisions_for(10))) << error;
  EXPECT_EQ(back, s);
  EXPECT_FALSE(decode_schedule(encode_schedule(s), &back, &error, max_decisions_for(9)));
}

}  // namespace
}  // namespace weft
