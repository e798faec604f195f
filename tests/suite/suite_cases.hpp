#pragma once
// The suite of real programs (programs/) as cases: one per program folder, or one per run
// its weft.json lists, each with weft.json's fields and the run's merged. Shared by the
// suite test and `make bench`.
//
// weft.json (every field optional but "expect" under fail/):
//   { "about": "...", "strategy": "pct:3", "executions": 2000, "seed": 1,
//     "args": ["3"], "stdin": "input.txt", "steps": 100000, "hang_timeout": 10,
//     "races": "report",              // --races (default fail: a data race is the bug)
//     "expect": "assertion",          // fail/ only: the bug kind
//     "race_lines": [12, 20],         // fail/ data-race: the source lines of both accesses
//     "complete": true,               // pass/ only: the strategy must exhaust its space
//     "dpor_incomplete": "why",       // dpor need not complete (pass/) or find the bug
//                                     // (fail/: only bf:rand must) within the suite's
//                                     // systematic budget (suite_test.cpp)
//     "known_failure": "why",         // skipped, with the reason (a weft bug to fix)
//     "runs": [ {"name": "n3", "args": ["3"], ...}, ... ] }   // several runs, each
//                                                             // overriding the fields above
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace weft::suite {

struct Case {
  std::string verdict;    // "fail" or "pass"
  std::string name;       // the folder
  std::string run;        // "" or the name of one of its runs
  nlohmann::json config;  // weft.json with the run's fields merged in
  std::string error;      // weft.json could not be read
};

// gtest prints a parameter when a test fails (found by argument-dependent lookup): say
// which program, not its bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.verdict << "/" << c.name << (c.run.empty() ? "" : "/" + c.run);
}

// The cases of programs/<verdict>/*, in folder order.
inline std::vector<Case> load_cases(const std::filesystem::path& sources, const char* verdict) {
  namespace fs = std::filesystem;
  std::vector<Case> cases;
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(sources / verdict, ec))
    if (e.is_directory()) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& dir : dirs) {
    Case c{verdict, dir.filename().string(), "", nlohmann::json::object(), ""};
    std::ifstream in(dir / "weft.json");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!in || j.is_discarded() || !j.is_object()) {
      c.error = (dir / "weft.json").string() + " is missing or not a JSON object";
      cases.push_back(c);
      continue;
    }
    nlohmann::json runs = j.value("runs", nlohmann::json::array());
    j.erase("runs");
    if (runs.empty()) {
      c.config = j;
      cases.push_back(c);
    }
    for (const nlohmann::json& r : runs) {
      Case rc = c;
      rc.config = j;
      rc.config.update(r);
      rc.run = r.value("name", "");
      cases.push_back(rc);
    }
  }
  return cases;
}

// A word for sh.
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// The program, its arguments and its input, as the tail of a weft command line.
inline std::string program_command(const Case& c, const std::filesystem::path& sources,
                                   const std::filesystem::path& programs) {
  std::string cmd = "-- " + quote((programs / c.verdict / c.name).string());
  for (const nlohmann::json& a : c.config.value("args", nlohmann::json::array()))
    cmd += " " + quote(a.get<std::string>());
  const std::string input = c.config.value("stdin", "");
  cmd += " < " + quote(input.empty() ? "/dev/null" : (sources / c.verdict / c.name / input).string());
  return cmd;
}

}  // namespace weft::suite
