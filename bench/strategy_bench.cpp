// `make bench`, systematic strategies (issue: preemption and delay bounding), in one run:
//  1. executions to the first bug and time for dfs, pb and db on the suite's failing
//     programs (programs/fail, each run as its weft.json says, same budget and seed for
//     every strategy);
//  2. executions per preemption bound on the correct work-stealing queue (the ICB
//     paper's Figure 1: how many executions each bound adds).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "run_weft.hpp"
#include "suite_cases.hpp"
#include "work_stealing_queue.hpp"

namespace fs = std::filesystem;
namespace suite = weft::suite;
using nlohmann::json;
using weft::bench::run_weft;

int main(int argc, char** argv) {
  const int budget = argc > 1 ? std::atoi(argv[1]) : 1000;
  const std::string bin = WEFT_BIN_DIR;
  const fs::path sources = WEFT_SUITE_SOURCE_DIR, programs = WEFT_SUITE_BINARY_DIR;
  const char* strategies[] = {"dfs", "pb", "db"};

  std::printf("systematic strategies on the failing suite programs (seed 1, budget %d):\n"
              "  executions to the first bug (preemptions) and seconds; '-' = not found\n",
              budget);
  std::printf("  %-30s", "program");
  for (const char* s : strategies) std::printf(" %22s", s);
  std::printf("\n");
  std::set<std::string> shown;  // a folder's runs for other strategies: one row per input
  for (const suite::Case& p : suite::load_cases(sources, "fail")) {
    if (!p.error.empty()) continue;
    const std::string cmd = " " + suite::program_command(p, sources, programs);
    if (!shown.insert(cmd).second) continue;
    // As the suite runs it: a bug behind a plain race is looked for with races reported.
    const std::string races =
        p.config.contains("races") ? " --races=" + p.config["races"].get<std::string>() : "";
    std::string name = p.name;
    for (const json& a : p.config.value("args", json::array())) name += " " + a.get<std::string>();
    std::printf("  %-30s", name.c_str());
    for (const char* s : strategies) {
      const json r = run_weft("cd /tmp && " + bin + "/weft run --jobs 1 --quiet --json - --schedule-out /dev/null -s " +
                              s + " -n " + std::to_string(budget) + " --seed 1" + races + cmd);
      char cell[64];
      const double t = r.value("elapsed_s", 0.0);
      if (r.contains("bugs") && !r["bugs"].empty()) {
        std::snprintf(cell, sizeof cell, "%llu (%d) %.1fs",
                      static_cast<unsigned long long>(r["bugs"][0].value("execution", 0)),
                      r["bugs"][0].value("preemptions", 0), t);
      } else {
        std::snprintf(cell, sizeof cell, "- %.1fs", t);
      }
      std::printf(" %22s", cell);
      std::fflush(stdout);
    }
    std::printf("\n");
  }

  std::printf("\ncorrect work-stealing queue (ICB Figure 1): executions per preemption bound\n");
  std::printf("  %-6s %12s %12s %10s\n", "bound", "executions", "added", "seconds");
  std::uint64_t previous = 0;
  for (int bound = 0; bound <= 4; ++bound) {
    weft::Options o;
    o.strategy = "pb:" + std::to_string(bound);
    o.executions = 0;
    weft::Result r = weft::explore(wsq::harness<wsq::Variant::kCorrect>, o);
    if (!r.ok() || !r.complete()) {
      std::fprintf(stderr, "strategy_bench: the correct queue failed or did not complete:\n%s\n",
                   r.report().c_str());
      return 1;
    }
    std::printf("  %-6d %12llu %12llu %10.2f\n", bound,
                static_cast<unsigned long long>(r.executions()),
                static_cast<unsigned long long>(r.executions() - previous), r.elapsed_s());
    previous = r.executions();
  }
  return 0;
}
