#pragma once
// Shared by the benchmarks that drive the command line: run `weft run ... --json -` and
// read its result.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace weft::bench {

// What `command` printed on stdout (its stderr dropped).
inline std::string run_output(const std::string& command) {
  std::string out;
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// The JSON weft printed (an empty object when it printed none).
inline nlohmann::json run_weft(const std::string& command) {
  nlohmann::json j = nlohmann::json::parse(run_output(command), nullptr, false);
  return j.is_discarded() ? nlohmann::json::object() : j;
}

}  // namespace weft::bench
