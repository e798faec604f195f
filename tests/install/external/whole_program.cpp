// A whole program for the installed weft-c++ and `weft run`: the same two buyers, its
// failure an exit status.
#include <cstdio>

#include "stock.hpp"

int main() {
  Stock stock;
  std::thread a([&] { buy(stock); }), b([&] { buy(stock); });
  a.join();
  b.join();
  if (stock.items < 0) {
    std::printf("sold %d items too many\n", -stock.items);
    return 1;
  }
  return 0;
}
