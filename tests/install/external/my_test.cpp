// weft::explore from a plain main: exit status 1 and the report when the bug is found.
#include <iostream>

#include "buyers.hpp"

int main() {
  weft::Result r = weft::explore(two_buyers, {.strategy = "random", .executions = 5000, .seed = 1});
  std::cout << r.report();
  return r.ok() ? 0 : 1;
}
