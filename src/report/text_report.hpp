#pragma once
// The report for people: each bug with the interleaving that causes it, then what the
// run covered.
#include <cstddef>
#include <string>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"
#include "report/text_width.hpp"

namespace weft {

struct TextOptions {
  // Consecutive unremarkable steps of one thread longer than this fold into one line.
  std::size_t fold_longer_than = 8;
  // The steps just before the failure are always shown in full.
  std::size_t unfolded_tail = 6;
  // Append each location's source line when the file is readable.
  bool source_lines = true;
  // The interleaving shows one column per thread up to this many threads, else a column
  // naming each step's thread.
  std::size_t max_thread_columns = 6;
  // ANSI colours (a terminal): the bug, the failing step, preemptions, one per thread.
  bool colour = false;
  // No line longer than this many columns (the terminal's; 0: no limit): tables shrink
  // their location columns, long names and paths are shortened from the middle, other
  // lines wrap at spaces; but a tool error ("weft: error: ...") stays one line.
  std::size_t width = kDefaultTextWidth;
};

// Layout (each part only when it applies):
//   weft: error: <error>
//   bug: <kind>: <message> -- T<n> at <file>:<line> in <function>
//     <line> | <source>
//   interleaving (<n> steps, <p> preemptions; > marks the failing step, * a preemption):
//            T0               T1 (<name>)      ...        (a column per thread)
//     <step> [*] <op> <object>                  <file>:<line> <function> | <source>
//     <step>                  [*] <op> <object> <file>:<line> <function> | <source>
//                             ... <k> steps folded (<from>-<to>: <counts by op>)
//   (never folded: thread switches, thread operations, preemptions, the tail, and the
//   culprits of culprit_steps.hpp; lanes only when they fit the width)
//   (more than max_thread_columns threads: "<step> T<n> [*] <op> <object> ..." rows)
//   blocked threads: (deadlocks) T<n> <op> <object> <file>:<line> <function>
//   heap objects: heap#<i> <size> allocated by T<n> before step <s> <file>:<line> ...
// Objects are named as ObjectNames names them (counter, table+8, heap#2+16, 0x..).
//   preemptions: <p>, steps: <n>, found in execution <e> of <x>
//   replay: <hint>
//   schedule: <schedule>
//   run: / coverage: / note: (sync-only)        or, without bugs,
//   no bug found in <x> executions (<strategy>, seed <s>, complete|budget|interrupted)
//   interrupted after <x> executions (<signal>): ... (a signal stopped the search)
std::string format_text(const RunRecord& run, Symbolizer& symbolizer,
                        const TextOptions& options = {});

}  // namespace weft
