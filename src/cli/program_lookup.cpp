#include "cli/program_lookup.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include "cli/program_check.hpp"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

// Where execvp would look for `name`, in order: itself when it names a path, else each
// directory of PATH.
std::vector<fs::path> path_candidates(const std::string& name) {
  std::vector<fs::path> candidates;
  if (name.find('/') != std::string::npos) {
    candidates.emplace_back(name);
  } else if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      candidates.push_back(fs::path(dir.empty() ? "." : dir) / name);
  }
  return candidates;
}

}  // namespace

// weft's runtime next to this executable: <prefix>/bin/weft -> <prefix>/lib/libweft.so,
// or where it was installed.
std::string runtime_path() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  for (const char* rel : {"../lib/libweft.so", WEFT_INSTALLED_RUNTIME, "../lib/weft/libweft.so"}) {
    fs::path p = self.parent_path() / rel;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return "";
}

// The program as execvp would find it (a directory in PATH is passed over, as execvp
// does); "" with *why when it cannot be run.
std::string resolve_program(const std::string& name, std::string* why) {
  const bool path_given = name.find('/') != std::string::npos;
  for (const fs::path& p : path_candidates(name)) {
    std::error_code ec;
    if (!fs::exists(p, ec) || (!path_given && fs::is_directory(p, ec))) continue;
    if (fs::is_directory(p, ec)) {
      *why = p.string() + " is a directory, not a program";
      return "";
    }
    if (access(p.c_str(), X_OK) != 0) {
      *why = "program '" + p.string() + "' is not executable";
      return "";
    }
    *why = weft::cli::program_problem(p.string());
    return why->empty() ? p.string() : "";
  }
  *why = "program '" + name + "' not found";
  // A name without '/' is looked up in PATH only, as the shell does.
  if (std::error_code ec; !path_given && fs::exists(name, ec))
    *why += " in PATH (" +
            (fs::is_directory(name, ec) ? "./" + name + " is a directory"
                                        : "give its path: ./" + name) +
            ")";
  return "";
}

// `name` as the shell would find it in PATH; "" when it is not there.
std::string find_in_path(const std::string& name) {
  for (const fs::path& p : path_candidates(name)) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

}  // namespace weft::cli
