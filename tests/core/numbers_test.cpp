// weft run's numbers and the WEFT_* variables it hands its program: one reading for both.
#include "core/numbers.hpp"
#include "core/expected_exit.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>

namespace weft {
namespace {

TEST(Numbers, WholeNumbersAreReadAsIntegersOverTheWholeRange) {
  std::uint64_t v = 7;
  EXPECT_EQ(read_number("18446744073709551615", kSeedNumber, &v), "");
  EXPECT_EQ(v, ~std::uint64_t{0});
  // Through a double, 2^53 + 1 came out one less.
  EXPECT_EQ(read_number("9007199254740993", kSeedNumber, &v), "");
  EXPECT_EQ(v, 9007199254740993ull);
  EXPECT_EQ(read_number("010", kSeedNumber, &v), "");
  EXPECT_EQ(v, 10u) << "decimal, not octal";
}

TEST(Numbers, BadWholeNumbersAreNamedWithWhatIsAccepted) {
  std::uint64_t v = 7;
  for (const char* bad : {"-1", "18446744073709551616", "0x10", "1.5", "1e3", "", " 1", "+1",
                          "nan", "inf"}) {
    EXPECT_EQ(read_number(bad, kSeedNumber, &v),
              "'" + std::string(bad) +
                  "' is not valid: give a whole number from 0 to 18446744073709551615")
        << bad;
    EXPECT_EQ(v, 7u) << bad;
  }
  EXPECT_NE(read_number("0", kStepsNumber, &v), "") << "below the range";
  EXPECT_NE(read_number("50000001", kStepsNumber, &v), "") << "above the range";
  EXPECT_EQ(read_number("50000000", kStepsNumber, &v), "");
  EXPECT_EQ(v, 50000000u);
}

TEST(Numbers, SecondsAreFiniteAndInRange) {
  double v = 7;
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "-1", "1e3", "0x10", "", ".", "1.2.3",
                          "1000000001", "99999999999999999999999999999999999999999"}) {
    EXPECT_EQ(read_number(bad, kTimeSeconds, &v), "'" + std::string(bad) + "' is not valid: give " +
                                                     kTimeSeconds.accepted)
        << bad;
    EXPECT_EQ(v, 7) << bad;
  }
  EXPECT_NE(read_number("0", kHangTimeoutSeconds, &v), "") << "below 0.01";
  EXPECT_NE(read_number("86401", kHangTimeoutSeconds, &v), "");
  EXPECT_EQ(read_number("2.5", kTimeSeconds, &v), "");
  EXPECT_EQ(v, 2.5);
  EXPECT_EQ(read_number("1000000000", kTimeSeconds, &v), "");
}

// What weft run writes into WEFT_TIME reads back as the same number, however small.
TEST(Numbers, SecondsTextReadsBackExactly) {
  for (double s : {0.0, 0.01, 2.5, 0.0000001, 1e9, 1.0 / 3, std::numeric_limits<double>::denorm_min()}) {
    const std::string text = seconds_text(s);
    double back = -1;
    EXPECT_EQ(read_number(text, Seconds{0, 1e9, ""}, &back), "") << text;
    EXPECT_EQ(back, s) << text;
  }
}

// --expect-exit and WEFT_EXPECT_EXIT: a status in plain decimal or 'any', no sign (fuzz/
// options_fuzz.cpp found "-0" taken for 0).
TEST(Numbers, AnExpectedExitStatusHasNoSign) {
  ExpectedExit x{true, 9};
  for (const char* bad : {"-0", "-1", "+0", "256", "00", " 1", "", "ANY"}) {
    EXPECT_EQ(ExpectedExit::parse(bad, &x),
              "'" + std::string(bad) + "' is not valid: give " + ExpectedExit::kAccepted)
        << bad;
    EXPECT_TRUE(x.any) << bad;
  }
  EXPECT_EQ(ExpectedExit::parse("0", &x), "");
  EXPECT_EQ(x.text(), "0");
  EXPECT_EQ(ExpectedExit::parse("255", &x), "");
  EXPECT_EQ(x.status, 255);
}

}  // namespace
}  // namespace weft
