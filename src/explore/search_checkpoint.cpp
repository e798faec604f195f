#include "explore/search_checkpoint.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>

namespace weft::explorer {

SearchCheckpoint::SearchCheckpoint(std::string path, double every_s, Options options,
                                   std::uint64_t fingerprint)
    : path_(std::move(path)),
      every_ns_(static_cast<std::uint64_t>(std::fmax(every_s, 0.001) * 1e9)),
      options_(std::move(options)),
      fingerprint_(fingerprint) {}

bool SearchCheckpoint::open(bool* resumed, std::string* error) {
  *resumed = false;
  if (!active()) return true;
  struct stat st;
  if (stat(path_.c_str(), &st) != 0 && errno == ENOENT) return true;  // a new search
  if (!read_checkpoint(path_, &saved_, error)) return false;
  if (std::string e = checkpoint_mismatch(path_, saved_, fingerprint_, options_); !e.empty()) {
    *error = e;
    return false;
  }
  *resumed = true;
  return true;
}

bool SearchCheckpoint::restore(Strategy& strategy, std::string* error) const {
  if (strategy.distribution().load_state(saved_.state)) return true;
  *error = "checkpoint '" + path_ +
           "' is refused: its search state is damaged (remove it to "
           "start the search over)";
  return false;
}

std::string SearchCheckpoint::save(const Strategy& strategy, bool unfinished,
                                   const Progress& progress, std::uint64_t now_ns) {
  if (!active()) return "";
  next_ns_ = now_ns + every_ns_;
  Checkpoint c;
  c.fingerprint = fingerprint_;
  c.options = options_;
  c.executions = progress.executions;
  c.classes = strategy.coverage().classes;
  c.bugs = progress.bugs;
  c.complete = progress.complete;
  c.points = progress.points;
  strategy.distribution().save_state(unfinished, &c.state);
  std::string error;
  return write_checkpoint(path_, c, &error) ? "" : error;
}

}  // namespace weft::explorer
