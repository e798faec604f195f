#pragma once
// Checks that a measured frequency agrees with a probability theory gives: the count must
// lie in the normal-approximation confidence interval n*p +- z*sqrt(n*p*(1-p)). The tests
// use fixed seeds, so each check either always passes or always fails.
#include <cmath>
#include <cstdint>
#include <sstream>

#include <gtest/gtest.h>

namespace weft::model {

inline constexpr double kZ99 = 2.5758;  // two-sided 99%

inline ::testing::AssertionResult within_ci(std::uint64_t hits, std::uint64_t n, double p,
                                            double z = kZ99) {
  const double mean = static_cast<double>(n) * p;
  const double half = z * std::sqrt(static_cast<double>(n) * p * (1 - p));
  const double h = static_cast<double>(hits);
  std::ostringstream what;
  what << hits << " of " << n << " (rate " << h / static_cast<double>(n) << ") against p = " << p
       << ": interval [" << mean - half << ", " << mean + half << "]";
  if (std::fabs(h - mean) <= half) return ::testing::AssertionSuccess() << what.str();
  return ::testing::AssertionFailure() << what.str();
}

}  // namespace weft::model
