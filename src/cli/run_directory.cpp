#include "cli/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace fs = std::filesystem;

namespace weft::cli {
namespace {

// Written once the lock is held: a directory without it may be one being made.
constexpr const char* kMarker = ".weft-run";

fs::path temporary_root() {
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);  // TMPDIR when it names a directory
  return ec ? fs::path("/tmp") : tmp;
}

// weft-XXXXXX, as mkdtemp names them.
bool run_name(const std::string& name) {
  return name.size() == 11 && name.starts_with("weft-");
}

// Whether `dir` is a run's whose weft is gone: this user's, marked, and its lock free
// (taken here, then released with the descriptor).
bool abandoned(const fs::path& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  const bool gone = fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
                    faccessat(fd, kMarker, F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
                    flock(fd, LOCK_EX | LOCK_NB) == 0;
  close(fd);
  return gone;
}

}  // namespace

std::size_t RunDirectory::sweep(const fs::path& tmp) {
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    if (!run_name(it->path().filename().string()) || !abandoned(it->path())) continue;
    std::error_code gone;
    removed += fs::remove_all(it->path(), gone) != 0;
  }
  return removed;
}

std::string RunDirectory::make() {
  const fs::path root = temporary_root();
  sweep(root);
  std::string name = (root / "weft-XXXXXX").string();
  if (mkdtemp(name.data()) == nullptr)
    return "cannot make a temporary directory in " + root.string() + ": " + std::strerror(errno);
  path_ = name;
  lock_ = open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // Blocking: a sweep may hold it for a moment (it finds no marker and lets go).
  if (lock_ < 0 || flock(lock_, LOCK_EX) != 0) {
    const std::string why = std::strerror(errno);
    remove();
    return "cannot lock the temporary directory " + name + ": " + why;
  }
  std::ofstream(path_ / kMarker) << getpid() << "\n";
  return "";
}

void RunDirectory::remove() {
  if (!path_.empty()) {
    std::error_code ec;
    fs::remove_all(path_, ec);
    path_.clear();
  }
  if (lock_ >= 0) close(lock_);
  lock_ = -1;
}

}  // namespace weft::cli
