#pragma once
// A bug's whole story as one self-contained web page (no network access, nothing beside
// it): what failed and where (an assertion's file and line, a deadlock's blocked threads
// and their cycle, a race's two accesses), a swimlane per thread with a box per step in
// schedule order (its operation, object and file:line, the source line on hover and on
// click; preemptions, the failing step and the racing accesses marked; happens-before
// edges between threads drawn as arrows), the data races the run saw, the failing
// execution's output and the command that replays it. Everything shown is escaped.
#include <string>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

// What the page shows beside the run's record.
struct HtmlContext {
  std::string program;         // the program's path, as the run named it
  std::string replay_command;  // the shell command that replays the bug; "": a generic one
  std::string output;          // what the failing execution printed
};

// The page of run.bugs[0] (run.races: the races seen); "" when there is no bug.
std::string format_html(const RunRecord& run, Symbolizer& symbolizer, const HtmlContext& context);

}  // namespace weft
