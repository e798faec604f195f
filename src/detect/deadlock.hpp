#pragma once
// Explains a deadlock in one line: the cycle of threads waiting for each other when
// there is one, otherwise what each blocked thread waits for.
#include <string>
#include <vector>

#include "core/op.hpp"

namespace weft::detect {

struct WaitEdge {
  ThreadId thread = kNoThread;
  Op op;                         // what it waits to do
  ThreadId holder = kNoThread;   // the thread it waits for (lock owner, joined thread), if any
};

std::string describe_deadlock(const std::vector<WaitEdge>& waits);

}  // namespace weft::detect
