#pragma once
// A run's distinct bugs and reported races, in its RunRecord's lists: a bug by its kind
// and place (bug_identity.hpp), one seen again counting a hit of the first; a race
// reported (--races=report, or past the race a run stopped at) once per pair of source
// lines.
#include <cstddef>
#include <string>
#include <vector>

#include "core/run_record.hpp"

namespace weft::explorer {

class BugTable {
 public:
  static constexpr std::size_t kNew = ~std::size_t{0};

  explicit BugTable(RunRecord* run) : run_(run) {}
  // The index in run.bugs of the bug `key` names; kNew when it is not there yet.
  std::size_t find(const std::string& key) const;
  // A new bug, named `key` (find() gave kNew): appended to run.bugs.
  void add(BugRecord bug, const std::string& key);
  // Another hit of the known bug `at`.
  void hit(std::size_t at) { ++run_->bugs[at].hits; }
  const std::string& key(std::size_t at) const { return bug_keys_[at]; }
  // Whether a race of the pair of source lines `lines` was reported.
  bool race_reported(const std::string& lines) const;
  // A race of `lines` none was reported of (race_reported() false): appended to run.races.
  void add_race(BugRecord race, const std::string& lines);

 private:
  RunRecord* run_;
  std::vector<std::string> bug_keys_;   // run.bugs[i] is the distinct bug bug_keys_[i]
  std::vector<std::string> race_keys_;  // the source lines of each race in run.races
};

}  // namespace weft::explorer
