#include "explore/bug_table.hpp"

#include <algorithm>
#include <utility>

namespace weft::explorer {

std::size_t BugTable::find(const std::string& key) const {
  const auto seen = std::find(bug_keys_.begin(), bug_keys_.end(), key);
  return seen == bug_keys_.end() ? kNew : static_cast<std::size_t>(seen - bug_keys_.begin());
}

void BugTable::add(BugRecord bug, const std::string& key) {
  bug_keys_.push_back(key);
  run_->bugs.push_back(std::move(bug));
}

bool BugTable::race_reported(const std::string& lines) const {
  return std::find(race_keys_.begin(), race_keys_.end(), lines) != race_keys_.end();
}

void BugTable::add_race(BugRecord race, const std::string& lines) {
  race_keys_.push_back(lines);
  run_->races.push_back(std::move(race));
}

}  // namespace weft::explorer
