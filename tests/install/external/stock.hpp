// Two buyers and one item: checking the stock and taking the item are each locked, but
// not together, so under one interleaving both buy it.
#pragma once
#include <mutex>
#include <thread>

struct Stock {
  std::mutex lock;
  int items = 1;
};

inline void buy(Stock& stock) {
  bool available;
  {
    std::lock_guard<std::mutex> g(stock.lock);
    available = stock.items > 0;
  }
  if (available) {  // another buyer may come between the check and the take
    std::lock_guard<std::mutex> g(stock.lock);
    stock.items--;
  }
}

inline void buy_fixed(Stock& stock) {
  std::lock_guard<std::mutex> g(stock.lock);
  if (stock.items > 0) stock.items--;
}
