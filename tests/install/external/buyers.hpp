// The bodies the tests explore: two buyers, one item, and the stock never negative.
#pragma once
#include <weft/weft.hpp>

#include "stock.hpp"

inline void two_buyers() {
  Stock stock;
  std::thread a([&] { buy(stock); }), b([&] { buy(stock); });
  a.join();
  b.join();
  WEFT_ASSERT(stock.items >= 0);
}

inline void two_buyers_fixed() {
  Stock stock;
  std::thread a([&] { buy_fixed(stock); }), b([&] { buy_fixed(stock); });
  a.join();
  b.join();
  WEFT_ASSERT(stock.items >= 0);
}
