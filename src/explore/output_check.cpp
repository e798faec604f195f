#include "explore/output_check.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

namespace weft::explorer {
namespace {

constexpr std::size_t kMostCompared = std::size_t{64} << 20;  // bytes of output read

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

std::string read_all(int fd) {
  std::string out;
  char buf[65536];
  ssize_t n;
  while (out.size() < kMostCompared && (n = read(fd, buf, sizeof buf)) > 0) out.append(buf, n);
  return out;
}

// A line as a report quotes it: at most 120 characters.
std::string quoted(const std::string& line) {
  return "'" + (line.size() > 120 ? line.substr(0, 117) + "..." : line) + "'";
}

}  // namespace

OutputCheck::OutputCheck(std::string what) : what_(std::move(what)) {
  if (what_ == "-") fd_ = memfd_create("weft-stdout", 0);
}

OutputCheck::~OutputCheck() {
  if (fd_ >= 0) close(fd_);
}

void OutputCheck::before_execution() const {
  if (fd_ >= 0) {
    if (ftruncate(fd_, 0) != 0) return;
    lseek(fd_, 0, SEEK_SET);
  } else if (on()) {
    std::remove(what_.c_str());
  }
}

void OutputCheck::in_child() const {
  if (fd_ < 0) return;
  std::fflush(stdout);
  dup2(fd_, STDOUT_FILENO);
  close(fd_);
}

std::string OutputCheck::take() const {
  if (fd_ >= 0) {
    lseek(fd_, 0, SEEK_SET);
    return read_all(fd_);
  }
  if (!on()) return "";
  FILE* f = std::fopen(what_.c_str(), "rb");
  if (f == nullptr) return "";
  std::string out = read_all(fileno(f));
  std::fclose(f);
  return out;
}

void OutputCheck::set_reference(std::string output) {
  reference_ = std::move(output);
  has_reference_ = true;
}

std::string OutputCheck::compare(const std::string& output, std::string* diff) const {
  if (!has_reference_ || output == reference_) return "";
  *diff = output_diff(reference_, output);
  const std::vector<std::string> want = lines_of(reference_), got = lines_of(output);
  std::size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  const std::string where = what_ == "-" ? "stdout" : what_;
  std::string text = "the output (" + where + ") differs from the serial execution's at line " +
                     std::to_string(i + 1) + ": ";
  if (i < want.size() && i < got.size())
    return text + quoted(got[i]) + " where it was " + quoted(want[i]);
  if (i < want.size())
    return text + "it ends where the serial execution printed " + quoted(want[i]);
  if (i < got.size()) return text + quoted(got[i]) + " after the serial execution's last line";
  return text + "the same lines, other line ends";
}

std::string output_diff(const std::string& expected, const std::string& actual, std::size_t most) {
  const std::vector<std::string> want = lines_of(expected), got = lines_of(actual);
  std::size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  std::string diff = "--- the serial execution\n+++ this execution\n";
  if (i > 0) diff += "  " + want[i - 1] + "\n";
  for (std::size_t k = i; k < want.size() && k < i + most; ++k) diff += "- " + want[k] + "\n";
  if (want.size() > i + most)
    diff += "- ... (" + std::to_string(want.size() - i - most) + " more lines)\n";
  for (std::size_t k = i; k < got.size() && k < i + most; ++k) diff += "+ " + got[k] + "\n";
  if (got.size() > i + most)
    diff += "+ ... (" + std::to_string(got.size() - i - most) + " more lines)\n";
  return diff;
}

}  // namespace weft::explorer
