#pragma once
// weft run --jobs: each worker numbers an execution by its place in the search's order
// (Shard::global: worker j's k-th place is j + jobs x k), and a team of workers leaves
// places empty (a worker out of work before its round ended). The merged result numbers
// the executions that ran instead: an execution's number is 1 + how many of the whole
// search's ran before it in that order, so that "found in execution N of M" has N <= M,
// and the text, the JSON and the HTML page show the same N whatever the workers.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace weft::cli {

class ExecutionNumbering {
 public:
  // A worker's result (its order_runs), part `index` of `count`. "" or what is malformed.
  std::string add_part(const nlohmann::ordered_json& result, std::uint32_t index,
                       std::uint32_t count);
  // The number of the execution the workers numbered `numbered` (from 1, in the order);
  // `numbered` itself when no part was added (a shard's workers: numbered in the
  // unsharded search, whose other executions ran elsewhere).
  std::uint64_t compact(std::uint64_t numbered) const;
  // The merged result's bugs and races, renumbered; what a race leads to, the race's
  // number and how many executions later its worker found it (the other workers' after
  // the race ran or not as timing had it).
  void renumber(nlohmann::ordered_json* merged);
  // A worker's text report or HTML page, renumbered: every "found in execution N" (the
  // page's <span id="execution">N too) and leads-to's "(execution N" (as the merged
  // result, renumbered first, has it); "of M" becomes "of `executions`", the merged
  // search's count. The words may be on two lines.
  std::string renumber(std::string text, std::uint64_t executions) const;

 private:
  struct Run {
    std::uint32_t index;
    std::uint32_t count;
    std::uint64_t first;
    std::uint64_t length;
  };
  std::vector<Run> runs_;
  bool compacting_ = false;
  std::uint32_t count_ = 0;
  std::map<std::uint64_t, std::uint64_t> leads_to_;  // a leads-to's number: its new one
};

}  // namespace weft::cli
