#include "cli/output_paths.hpp"

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace weft::cli {
namespace {

// What makes two paths one file: a regular file's device and inode; a path to be made,
// its normalised absolute form. None for stdout, or a device, pipe or socket (written
// through, never replaced).
std::optional<std::string> identity(const std::string& path) {
  if (path.empty() || path == "-") return std::nullopt;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return std::nullopt;
    return "file " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return std::nullopt;
  const fs::path normal = fs::weakly_canonical(absolute, ec);
  return "path " + (ec ? absolute.lexically_normal() : normal).string();
}

std::string named(const NamedPath& p) { return p.name + " " + p.path; }

}  // namespace

std::string output_clash(const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& inputs) {
  std::vector<std::optional<std::string>> ids;
  for (const NamedPath& o : outputs) ids.push_back(identity(o.path));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!ids[i]) continue;
    for (const NamedPath& in : inputs)
      if (identity(in.path) == ids[i])
        return named(outputs[i]) + " is " + (in.path == outputs[i].path ? "" : in.path + ", ") +
               in.name + ": weft would overwrite it; give another file";
    for (std::size_t j = 0; j < i; ++j)
      if (ids[j] == ids[i])
        return named(outputs[j]) + " and " + named(outputs[i]) +
               " name the same file: give each output a file of its own";
  }
  return "";
}

std::string unwritable(const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return "";
  const std::string said = option + " " + path + ": ";
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const bool exists = fs::exists(p, ec);
  // The kernel's files take no report (a write to /proc/version fails with EIO).
  if (struct statfs fs{}; statfs(exists ? path.c_str() : dir.c_str(), &fs) == 0 &&
                          (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC))
    return said + "is in /proc or /sys, the kernel's files, not a file for a report";
  if (exists) {
    if (fs::is_directory(p, ec)) return said + "is a directory";
    if (access(path.c_str(), W_OK) != 0)
      return said + "not writable (" + std::strerror(errno) + ")";
    return "";
  }
  if (!fs::is_directory(dir, ec)) return said + "directory " + dir.string() + " does not exist";
  if (access(dir.c_str(), W_OK) != 0)
    return said + "directory " + dir.string() + " is not writable";
  return "";
}

}  // namespace weft::cli
