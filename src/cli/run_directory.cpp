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
bool run_name(const std::string& name) { return name.size() == 11 && name.starts_with("weft-"); }

// Removes `dir` when it is a run's whose weft is gone: this user's, its lock free, and
// marked or empty (its weft was killed before it marked it). The lock is held while it
// goes: a weft that made it a moment ago waits for the lock, then finds it gone.
bool remove_if_abandoned(const fs::path& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  std::error_code ec;
  bool gone = fstat(fd, &st) == 0 && st.st_uid == geteuid() && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
              (faccessat(fd, kMarker, F_OK, AT_SYMLINK_NOFOLLOW) == 0 || fs::is_empty(dir, ec));
  if (gone) gone = fs::remove_all(dir, ec) != 0 && !ec;
  close(fd);
  return gone;
}

}  // namespace

std::size_t RunDirectory::sweep(const fs::path& tmp) {
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    if (run_name(it->path().filename().string())) removed += remove_if_abandoned(it->path());
  }
  return removed;
}

std::string RunDirectory::make() {
  const fs::path root = temporary_root();
  sweep(root);
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::string name = (root / "weft-XXXXXX").string();
    if (mkdtemp(name.data()) == nullptr)
      return "cannot make a temporary directory in " + root.string() + ": " + std::strerror(errno);
    path_ = name;
    lock_ = lock_made(path_);
    if (lock_ == kSwept) {
      lock_ = -1;
      path_.clear();
      continue;
    }
    if (lock_ < 0) {
      const std::string why = std::strerror(errno);
      remove();
      return "cannot lock the temporary directory " + name + ": " + why;
    }
    std::ofstream(path_ / kMarker) << getpid() << "\n";
    return "";
  }
  return "cannot make a temporary directory in " + root.string() +
         ": each one made was removed at once";
}

int RunDirectory::lock_made(const fs::path& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? kSwept : -1;  // swept before it was opened
  // Blocking: another run's sweep may hold it for a moment.
  if (flock(fd, LOCK_EX) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_nlink > 0) return fd;
  close(fd);  // swept while still empty, before it was locked
  return kSwept;
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
