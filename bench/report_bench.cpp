// `make bench`, reports (issue #26, item 1): on each failing suite program, the default
// search's first bug as reported (minimised) against the same search's raw find, and the
// fewest preemptions any strategy's first find of that bug has (pb, dpor, random, pct:3,
// pos, each with --no-minimize). Target: the report's preemptions at most that least
// plus one, for a median of under 2 s added by minimisation (the elapsed time with
// minimisation less the same run's without it). One worker, seed 0, as the defaults.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_weft.hpp"
#include "suite_cases.hpp"

namespace suite = weft::suite;
using nlohmann::json;
using weft::bench::run_weft;

namespace {

struct Find {
  bool found = false;
  std::string key;  // kind and location: the same bug
  long preemptions = 0;
  long first_preemptions = 0;  // before minimisation
  double seconds = 0;
};

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
  return f;
}

}  // namespace

int main() {
  const std::string bin = WEFT_BIN_DIR;
  const std::filesystem::path sources = WEFT_SUITE_SOURCE_DIR, programs = WEFT_SUITE_BINARY_DIR;
  std::printf("reports: the default search's first bug, minimised, on the failing suite programs\n");
  std::printf("  %-28s %6s %10s %6s %8s  %s\n", "program", "found", "reported", "least", "added s",
              "least by");
  std::vector<double> added;
  int rows = 0, within = 0;
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
    std::printf("  %-28s %6ld %10ld %6ld %8.2f  %s\n", name.c_str(), reported.first_preemptions,
                reported.preemptions, least, extra, by.c_str());
    std::fflush(stdout);
  }
  std::sort(added.begin(), added.end());
  const double median = added.empty() ? 0 : added[added.size() / 2];
  std::printf("  %d of %d reports within one preemption of the least; median time added %.2f s "
              "(target: all, under 2 s)\n",
              within, rows, median);
  return 0;
}
