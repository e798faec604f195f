// `make bench`, reports (issue #26): on each failing suite program, the default search's
// first bug as reported (minimised) against the same search's raw find (preemptions and
// steps), the fewest preemptions any strategy's first find of that bug has (pb, dpor,
// random, pct:3, pos, each with --no-minimize), and the widest line of the text report
// as a pipe gets it (100 columns). Target: the report's preemptions at most that least
// plus one, for a median of under 2 s added by minimisation (the elapsed time with
// minimisation less the same run's without it). One worker, seed 0, as the defaults.
// Then the time to render a 100,000-step execution's reports in full (text, JSON, HTML
// and trace events: --full-trace), less the same run's with the default last 1000 steps;
// target under 1 s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_weft.hpp"
#include "suite_cases.hpp"

namespace suite = weft::suite;
using nlohmann::json;
using weft::bench::run_output;
using weft::bench::run_weft;

namespace {

struct Find {
  bool found = false;
  std::string key;  // kind and location: the same bug
  long preemptions = 0;
  long first_preemptions = 0;  // before minimisation
  long steps = 0, first_steps = 0;
  double seconds = 0;
};

// The widest line of `text`, in characters (UTF-8 continuation bytes not counted).
std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    widest = std::max<std::size_t>(widest, std::count_if(line.begin(), line.end(), [](char c) {
                                     return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
                                   }));
  return widest;
}

double seconds_to_run(const std::string& command) {
  const auto t0 = std::chrono::steady_clock::now();
  run_output(command);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Rendering a 100,000-step livelock's reports in full, less rendering its last 1000 steps
// (the median of three runs of each; the searches are the same, seed 0).
void long_trace_rendering(const std::string& bin) {
  const std::string base = "cd /tmp && COLUMNS=100 " + bin +
                           "/weft run -s random --jobs 1 --schedule-out /dev/null --html /dev/null "
                           "--trace-out /dev/null --json /dev/null ";
  if (!std::filesystem::exists(bin + "/cli_two_spinners")) {
    std::printf("\nrendering a 100,000-step execution: skipped (cli_two_spinners, a test "
                "program, is not built)\n");
    return;
  }
  const std::string program = " -- " + bin + "/cli_two_spinners";
  std::vector<double> full, shown;
  for (int i = 0; i < 3; ++i) {
    full.push_back(seconds_to_run(base + "--full-trace" + program));
    shown.push_back(seconds_to_run(base + program));
  }
  std::sort(full.begin(), full.end());
  std::sort(shown.begin(), shown.end());
  std::printf("\nrendering a 100,000-step execution's reports in full (text, JSON, HTML, trace):\n"
              "  %.2f s more than its last 1000 steps (%.2f s against %.2f s; target under 1 s)\n",
              full[1] - shown[1], full[1], shown[1]);
}

Find find_of(const json& r) {
  Find f;
  f.seconds = r.value("elapsed_s", 0.0);
  if (!r.contains("bugs") || r["bugs"].empty()) return f;
  const json& b = r["bugs"][0];
  f.found = true;
  f.key = b.value("kind", "") + " " + b.value("location", json::object()).dump();
  f.preemptions = b.value("preemptions", 0L);
  f.first_preemptions = b.contains("minimized") ? b["minimized"].value("found_preemptions", f.preemptions)
                                                : f.preemptions;
  f.steps = b.value("steps", 0L);
  f.first_steps = b.contains("minimized") ? b["minimized"].value("found_steps", f.steps) : f.steps;
  return f;
}

}  // namespace

int main() {
  const std::string bin = WEFT_BIN_DIR;
  const std::filesystem::path sources = WEFT_SUITE_SOURCE_DIR, programs = WEFT_SUITE_BINARY_DIR;
  std::printf("reports: the default search's first bug, minimised, on the failing suite programs\n");
  std::printf("  %-28s %6s %9s %6s %13s %8s %6s  %s\n", "program", "found", "reported", "least",
              "steps", "added s", "width", "least by");
  std::vector<double> added;
  int rows = 0, within = 0;
  std::size_t widest = 0;
  std::set<std::string> shown;
  for (const suite::Case& p : suite::load_cases(sources, "fail")) {
    if (!p.error.empty() || p.config.contains("known_failure")) continue;
    const std::string cmd = " " + suite::program_command(p, sources, programs);
    if (!shown.insert(cmd).second) continue;
    std::string options = p.config.contains("races") ? " --races=" + p.config["races"].get<std::string>() : "";
    if (p.config.contains("steps")) options += " --steps " + std::to_string(p.config["steps"].get<long>());
    auto run = [&](const std::string& args) {
      return find_of(run_weft("cd /tmp && " + bin + "/weft run --jobs 1 --quiet --json - --schedule-out /dev/null " +
                              args + " --time 30" + options + cmd));
    };
    const Find reported = run(""), raw = run("--no-minimize");
    std::string name = p.name;
    for (const json& a : p.config.value("args", json::array())) name += " " + a.get<std::string>();
    if (!reported.found) {
      std::printf("  %-28s not found by the default search\n", name.c_str());
      continue;
    }
    long least = reported.first_preemptions;
    std::string by = "default";
    for (const char* s : {"pb", "dpor", "random", "pct:3", "pos"}) {
      const Find f = run(std::string("--no-minimize -s ") + s);
      if (f.found && f.key == reported.key && f.preemptions < least) {
        least = f.preemptions;
        by = s;
      }
    }
    least = std::min(least, reported.preemptions);
    const double extra = std::max(0.0, reported.seconds - raw.seconds);
    added.push_back(extra);
    ++rows;
    within += reported.preemptions <= least + 1;
    // The text report as a pipe gets it: 100 columns.
    const std::size_t width = widest_line(run_output(
        "cd /tmp && env -u COLUMNS " + bin +
        "/weft run --jobs 1 --schedule-out /dev/null --time 30" + options + cmd));
    widest = std::max(widest, width);
    const std::string steps =
        std::to_string(reported.first_steps) + " -> " + std::to_string(reported.steps);
    std::printf("  %-28s %6ld %9ld %6ld %13s %8.2f %6zu  %s\n", name.c_str(),
                reported.first_preemptions, reported.preemptions, least, steps.c_str(), extra,
                width, by.c_str());
    std::fflush(stdout);
  }
  std::sort(added.begin(), added.end());
  const double median = added.empty() ? 0 : added[added.size() / 2];
  std::printf("  %d of %d reports within one preemption of the least; median time added %.2f s "
              "(target: all, under 2 s); widest line %zu columns (at most 100)\n",
              within, rows, median, widest);
  long_trace_rendering(bin);
  return 0;
}
