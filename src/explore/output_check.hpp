#pragma once
// --check-output: some bugs only change what a program prints (a missing barrier in numeric
// code). Each execution's stdout, or a file the program writes, is compared with the
// reference: the serial execution's (each thread runs until it blocks or ends), which the
// fork server runs first, in a run and in a replay alike, so a replay reproduces the
// report. A difference is a `wrong-output` bug, shown as a diff.
#include <string>

namespace weft::explorer {

class OutputCheck {
 public:
  // `what`: "" off, "-" the program's stdout, else the path of a file it writes.
  explicit OutputCheck(std::string what);
  OutputCheck(const OutputCheck&) = delete;
  OutputCheck& operator=(const OutputCheck&) = delete;
  ~OutputCheck();

  bool on() const { return !what_.empty(); }
  const std::string& what() const { return what_; }
  // In the server, before each execution: an empty capture (the file removed).
  void before_execution() const;
  // In the execution's child: its stdout into the capture.
  void in_child() const;
  // After an execution: what it printed (or wrote).
  std::string take() const;

  bool has_reference() const { return has_reference_; }
  void set_reference(std::string output);
  void drop() { what_.clear(); }  // no reference to compare with: off
  // "" when `output` is the reference's, else a one-line summary (*diff: a few lines).
  std::string compare(const std::string& output, std::string* diff) const;

 private:
  std::string what_;
  int fd_ = -1;  // stdout's capture (a memfd)
  bool has_reference_ = false;
  std::string reference_;
};

// The first lines where `expected` and `actual` differ, with a line of context before:
// "  line N: ...", "- expected", "+ actual" (at most `most` of each).
std::string output_diff(const std::string& expected, const std::string& actual,
                        std::size_t most = 8);

}  // namespace weft::explorer
