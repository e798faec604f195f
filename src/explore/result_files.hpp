#pragma once
// What a fork server leaves for weft run when its search ends, in the run's directory:
// report.txt, output.txt and, for a bug, schedule.txt, trace.json and report.html, for an
// error error.txt (the run's error alone); then result.json, last, its sign that the others are
// whole. Each is made and written in turn (a long trace's are tens of MB), under another name and
// renamed into place.
#include <string>
#include <vector>

#include "core/run_record.hpp"
#include "report/text_report.hpp"

namespace weft::explorer {

struct ResultFiles {
  std::string dir;
  std::string program;
  std::vector<std::string> args;
  std::string replay_command;  // what the HTML page says replays the bug
  TextOptions text;            // the text report's colours and width
};

// Writes the run's files. "" or one line naming the file that could not be written and
// why (a full TMPDIR, say): result.json is then left out, so that no cut result passes.
std::string write_result_files(const ResultFiles& where, const RunRecord& run,
                               const std::string& output);

}  // namespace weft::explorer
