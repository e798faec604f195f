#pragma once
// Small helpers shared by the strategy tests.
#include <map>
#include <string>
#include <vector>

#include "core/strategy.hpp"
#include "support/model_program.hpp"

namespace weft::test {

// The last execution's decisions as text: threads as digits, values as "v<k>".
inline std::string schedule_text(const model::Executor& ex) {
  std::string s;
  for (const Decision& d : ex.decisions()) {
    if (d.kind == Decision::kThread)
      s += std::to_string(d.value);
    else
      s += "v" + std::to_string(d.value);
  }
  return s;
}

// Runs `executions` executions and returns each one's schedule_text.
inline std::vector<std::string> schedules(Strategy& s, const model::Program& p,
                                          int executions) {
  std::vector<std::string> out;
  model::Executor ex(p);
  for (int i = 0; i < executions && s.next_execution(); ++i) {
    ex.run(s);
    out.push_back(schedule_text(ex));
  }
  return out;
}

// How often each schedule came up in `executions` executions.
inline std::map<std::string, std::uint64_t> histogram(Strategy& s, const model::Program& p,
                                                      int executions) {
  std::map<std::string, std::uint64_t> h;
  for (const std::string& t : schedules(s, p, executions)) ++h[t];
  return h;
}

}  // namespace weft::test
