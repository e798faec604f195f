#include "cli/merged_report.hpp"

#include <sstream>

#include "cli/terminal_width.hpp"
#include "core/run_record.hpp"
#include "report/text_width.hpp"

namespace weft::cli {

// The report of one worker, its run and coverage lines replaced by the merged search's
// (the lines a worker wrapped go with them), fitted to the terminal's width.
std::string merged_report(const std::string& report, const nlohmann::ordered_json& m,
                          std::uint32_t jobs, const ExecutionNumbering& numbering) {
  const std::string strategy = m.value("strategy", "");
  const std::uint64_t n = m.value("executions", std::uint64_t{0});
  const std::string executions = std::to_string(n) + (n == 1 ? " execution" : " executions");
  const bool complete = m.value("complete", false);
  const std::string interrupted = m.value("interrupted", "");
  const std::string summary = m["coverage"].value("summary", "");
  std::ostringstream seconds;
  seconds.precision(2);
  seconds << std::fixed << m.value("elapsed_s", 0.0);
  const std::string seed = std::to_string(m.value("seed", std::uint64_t{0}));  // not an int
  std::istringstream in(report);
  std::string out;
  bool said = false;      // the interrupted line (a worker stopped before the signal has none)
  bool replaced = false;  // the last line was replaced: its indented continuations go too
  for (std::string line; std::getline(in, line);) {
    if (replaced && line.starts_with("  ")) continue;
    replaced = true;
    if (line.starts_with("run: strategy "))
      line = "run: strategy " + strategy + ", seed " + seed + ", " + executions + " on " +
             std::to_string(jobs) + " workers in " + seconds.str() + " s, " +
             (complete ? "complete" : "not complete");
    else if (line.starts_with("coverage: "))
      line = "coverage: " + summary;
    else if (line.starts_with("warning: long executions: "))
      continue;  // one worker's count: the merged one follows the summary
    else if (line.starts_with("no bug found in "))
      line = "no bug found in " + executions + " on " + std::to_string(jobs) + " workers (" +
             strategy + ", seed " + seed + ", " +
             (complete              ? "complete"
              : interrupted.empty() ? "budget"
                                    : "interrupted") +
             "; " + summary + ")";
    else if (line.starts_with("interrupted after ") && !interrupted.empty())
      line = weft::interrupted_line(n, interrupted);
    else
      replaced = false;
    said |= line.starts_with("interrupted after ") && !interrupted.empty();
    // Per-worker details on lines of their own.
    if (line.starts_with("coverage: ") || line.starts_with("no bug found in "))
      for (const std::string& part : weft::coverage_lines(line)) out += part + "\n";
    else
      out += line + "\n";
    const std::uint64_t cut = m.value("cut_executions", std::uint64_t{0});
    if (cut != 0 && (line.starts_with("coverage: ") || line.starts_with("no bug found in ")))
      out +=
          "warning: " + weft::cut_executions_warning(cut, m.value("max_steps", std::uint64_t{0})) +
          "\n";
  }
  if (!interrupted.empty() && !said) out += weft::interrupted_line(n, interrupted) + "\n";
  return weft::fit_lines(numbering.renumber(out, n), weft::cli::terminal_width());
}

}  // namespace weft::cli
