#pragma once
// A file the fork server wrote in the run directory (its trace, its HTML page), kept open
// past the directory's removal and copied to where the user asked by the kernel: a long
// trace's are tens of MB, which weft need not read. Or text that replaced it (a merged
// run's page, renumbered).
#include <string>

namespace weft::cli {

class ResultFile {
 public:
  ResultFile() = default;
  // Opens `path`; empty when it cannot (not written: no bug).
  explicit ResultFile(const std::string& path);
  ~ResultFile();
  ResultFile(ResultFile&& other) noexcept;
  ResultFile& operator=(ResultFile&& other) noexcept;
  ResultFile(const ResultFile&) = delete;
  ResultFile& operator=(const ResultFile&) = delete;

  // Its whole text.
  std::string text() const;
  void replace(std::string text);
  // Writes it to `path` (made, or truncated), every step checked: "" or one line,
  // "cannot write <what> to <path>: <why>", as write_output says it.
  std::string copy_to(const std::string& path, const std::string& what) const;

 private:
  int fd_ = -1;
  bool replaced_ = false;
  std::string text_;
};

}  // namespace weft::cli
