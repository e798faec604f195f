#pragma once
// What weft writes for the user: report files (--json, --schedule-out, --html,
// --trace-out) and stdout. Every write is checked, open to close, so that a full disk,
// /dev/full or a file the kernel refuses is an error in one line rather than a report
// silently lost.
#include <string>

namespace weft::cli {

// Writes `text` to the file `path` (made, or truncated), every step checked. "" or one
// line: "cannot write <what> to <path>: <why>" (what: "the JSON result", ...).
std::string write_output(const std::string& path, const std::string& what, const std::string& text);

// Makes the file `path` if it does not exist, leaving it as it is if it does (Bazel's
// TEST_SHARD_STATUS_FILE). "" or "cannot write <what> to <path>: <why>".
std::string touch_output(const std::string& path, const std::string& what);

}  // namespace weft::cli
