#pragma once
// weft run --jobs: the report of the worker whose bug is shown, with the run and coverage
// lines of the merged search and its executions renumbered, fitted to the terminal.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/execution_numbering.hpp"

namespace weft::cli {

std::string merged_report(const std::string& report, const nlohmann::ordered_json& m,
                          std::uint32_t jobs, const ExecutionNumbering& numbering);

}  // namespace weft::cli
