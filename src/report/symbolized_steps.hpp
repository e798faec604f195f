#pragma once
// A bug's interleaving as the public API shows it (weft::Bug::trace()).
#include <vector>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"
#include "weft/weft.hpp"

namespace weft {

// One Step per event, numbered from 1, located as the text report locates them
// (choose_location: the user's frame rather than a library header's).
std::vector<Step> symbolize_steps(const BugRecord& bug, Symbolizer& symbolizer);

}  // namespace weft
