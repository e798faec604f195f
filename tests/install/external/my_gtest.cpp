#include <weft/gtest.hpp>

#include "buyers.hpp"

WEFT_TEST(Stock, LastItem) { two_buyers(); }

WEFT_TEST_OPTIONS(Stock, LastItemLocked, {.strategy = "dfs", .executions = 0}) {
  two_buyers_fixed();
}
