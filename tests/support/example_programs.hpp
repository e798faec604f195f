#pragma once
// Model programs the strategy tests and benchmarks share.
#include <cstddef>

#include "support/model_program.hpp"

namespace weft::model {

// n started threads, each writing its own variable k times: no blocking, no conflicts.
// (nk)! / (k!)^n schedules.
Program independent_threads(std::size_t n, std::size_t k);

// The running example of the POS paper (Yuan, Yang, Gu, CAV 2018, Figure 2), as
// reconstructed in papers/README.md: thread A (4 ops) and thread B (6 ops, B4 waits for
// A3's signal); A4's assertion fails only for the total order
//   B1 A1 B2 B3 A2 A3 B4 B5 B6 A4
// which is also set as the target order. Random walk hits it with probability 1/128,
// PCT with d=3 and k=10 with 1/200.
// with_main: A and B are instead spawned and joined by a main thread (ThreadId 0), as in
// a real program: 14 steps instead of 10.
Program pos_running_example(bool with_main = false);
inline constexpr const char* kPosBugOrder = "B1 A1 B2 B3 A2 A3 B4 B5 B6 A4";

}  // namespace weft::model
