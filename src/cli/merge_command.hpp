#pragma once
// weft merge: the results of a search's shards as one, the first bug's schedule written.
#include <string>
#include <vector>

namespace weft::cli {

struct Merge {
  std::vector<std::string> files;
  std::string json;
  std::string schedule_out;
  bool quiet = false;
};

// The exit status: 0 no bug, 1 a bug, 2 an error.
int merge_command(const Merge& a);

}  // namespace weft::cli
