#pragma once
// A bug's interleaving as one self-contained web page (no network access, nothing beside
// it): a swimlane per thread, a box per step in schedule order with its operation, object
// and file:line, the source line on hover and on click, preemptions and the failing step
// marked, and the happens-before edges between threads drawn as arrows.
#include <string>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

std::string format_html(const BugRecord& bug, Symbolizer& symbolizer, const std::string& program);

}  // namespace weft
