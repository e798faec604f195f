#include "cli/command_support.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

#include "core/file_text.hpp"
#include "cli/terminal_width.hpp"
#include "report/text_width.hpp"

namespace weft::cli {

int fail(const std::string& message) {
  std::cerr << "weft: " << message << "\n";
  return kError;
}

// Read whole, in one string sized to the file, straight from the kernel (a long trace's
// outputs are tens of MB). "" when it cannot be read.
std::string read_file(const std::filesystem::path& p) {
  std::string text;
  read_file_text(p.string(), &text);  // what could be read: "" when nothing
  return text;
}

// Where a bug's schedule goes: --schedule-out, or NAME.weft-schedule in the current
// directory (NAME: the program's file name).
std::string schedule_path(const std::string& option, const std::string& program) {
  return option.empty() ? std::filesystem::path(program).filename().string() + ".weft-schedule"
                        : option;
}

int WriteErrors::report(int code) const {
  for (const std::string& l : lines) fail(l);
  return !lines.empty() && code == kOk ? kError : code;
}

// A shell command in lines of at most `width` columns, broken at spaces outside quotes
// with a backslash, so that it still pastes into a shell.
std::string command_lines(const std::string& command, std::size_t width,
                          const std::string& indent) {
  std::vector<std::string> words;
  bool quoted = false;
  for (std::size_t i = 0, from = 0; i <= command.size(); ++i) {
    if (i < command.size() && command[i] == '\'') quoted = !quoted;
    if (i == command.size() || (command[i] == ' ' && !quoted)) {
      words.push_back(command.substr(from, i - from));
      from = i + 1;
    }
  }
  std::string out, line = indent;
  for (const std::string& w : words) {
    if (line.size() > indent.size() && line.size() + 1 + w.size() + 2 > width) {
      out += line + " \\\n";
      line = indent + "  ";
    } else if (line.size() > indent.size()) {
      line += ' ';
    }
    line += w;
  }
  return out + line + "\n";
}

// "schedule written to FILE; replay it with: COMMAND", on one line when it fits the
// terminal, else the command on lines of its own.
std::string schedule_written(const std::string& file, const std::string& command) {
  const std::string said = "schedule written to " + file + "; replay it with:";
  const std::size_t width = weft::cli::terminal_width();
  if (said.size() + 1 + command.size() <= width) return said + " " + command + "\n";
  return weft::fit_lines(said + "\n", width) + command_lines(command, width, "  ");
}

}  // namespace weft::cli
