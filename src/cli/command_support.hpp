#pragma once
// What every weft command shares: its exit statuses, a one-line error, a file read whole,
// the files it writes checked, and where a bug's schedule goes and the line that says so.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace weft::cli {

constexpr int kOk = 0, kBug = 1, kError = 2;

// "weft: <message>" on stderr; kError.
int fail(const std::string& message);

// The file's whole text, "" when it cannot be read.
std::string read_file(const std::filesystem::path& p);

// Where a bug's schedule goes: --schedule-out, or NAME.weft-schedule in the current
// directory (NAME: the program's file name).
std::string schedule_path(const std::string& option, const std::string& program);

// The errors of the files a command wrote, printed once it is done (report()): each in
// one line. A bug or an interruption keeps its exit status (the more important verdict:
// the report said it); otherwise a lost output is an error (2).
struct WriteErrors {
  std::vector<std::string> lines;
  void add(std::string error) {
    if (!error.empty()) lines.push_back(std::move(error));
  }
  int report(int code) const;
};

// A shell command in lines of at most `width` columns, broken at spaces outside quotes
// with a backslash, so that it still pastes into a shell.
std::string command_lines(const std::string& command, std::size_t width, const std::string& indent);

// "schedule written to FILE; replay it with: COMMAND", on one line when it fits the
// terminal, else the command on lines of its own.
std::string schedule_written(const std::string& file, const std::string& command);

}  // namespace weft::cli
