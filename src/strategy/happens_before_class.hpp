#pragma once
// The happens-before class (Mazurkiewicz trace) of an execution, as a number: two
// executions get the same number exactly when they run the same steps and order every
// pair of dependent steps (dependence.hpp) alike. Computed from the steps alone, apart
// from any strategy, so that the claims oracle can count the classes dfs's executions
// fall into and check that dpor runs one execution per class, and misses none.
#include <cstdint>
#include <span>

#include "core/event.hpp"

namespace weft {

// Whether two steps of one execution do not commute: one thread's, or touching one
// object with a write (a failed step only reads), or one ends the process.
bool steps_dependent(const Event& a, const Event& b);

std::uint64_t happens_before_class(std::span<const Event> steps);

}  // namespace weft
