#pragma once
// A weft run's temporary directory (weft-XXXXXX in TMPDIR, else /tmp): the fork servers'
// results and the --jobs control file. Removed when the run ends, however it ends, while
// weft lives; weft holds a lock on it (flock) for as long. A weft killed by SIGKILL can
// remove nothing: its directory, unlocked and marked as a run's, is removed by the next
// weft run that uses the same TMPDIR (also when it was killed before it marked it).
#include <filesystem>
#include <string>

namespace weft::cli {

class RunDirectory {
 public:
  RunDirectory() = default;
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;
  ~RunDirectory() { remove(); }

  // Removes killed runs' directories, then makes this run's: "" or the error (one line).
  std::string make();
  const std::filesystem::path& path() const { return path_; }
  // Idempotent.
  void remove();

  // The directories of runs whose weft is gone, in `tmp`: removed; how many.
  static std::size_t sweep(const std::filesystem::path& tmp);

  // Opens and locks `dir`, just made: its descriptor; -1 with errno when that fails; or
  // kSwept when another run's sweep removed it first (empty and unlocked, it looked
  // abandoned): then make another.
  static constexpr int kSwept = -2;
  static int lock_made(const std::filesystem::path& dir);

 private:
  std::filesystem::path path_;
  int lock_ = -1;  // the directory, open and locked
};

}  // namespace weft::cli
