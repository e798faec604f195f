#include <iostream>

#include "buyers.hpp"

int main() {
  weft::Result r = weft::explore(two_buyers_fixed, {.strategy = "dfs", .executions = 0});
  std::cout << r.report() << r.coverage() << "\n";
  return r.ok() && r.complete() ? 0 : 1;
}
