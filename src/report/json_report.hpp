#pragma once
// The report for machines (weft run/replay/minimize --json, weft merge, weft::Result::json).
// Its fields are a contract, written down in docs/schema/weft-result.schema.json (JSON
// Schema, draft 2020-12; docs/json.md): every field, its type, which are required, the
// enums. Add fields, never rename or retype them (a new version: 2 made `trace` a long
// trace's last steps); a field added
// here is added to the schema in the same change, or cli_json_schema_test fails.
// Unknown strings are "", unknown lines 0. Addresses are hex strings: 64-bit values do not
// survive JSON readers that use doubles.
#include <string>
#include <vector>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

inline constexpr int kJsonReportVersion = 2;  // merge_results.cpp says it in words

// Pretty-printed with two-space indentation when `indent` is >= 0, one line when -1.
std::string format_json(const RunRecord& run, Symbolizer& symbolizer,
                        const std::string& program = "", const std::vector<std::string>& args = {},
                        int indent = 2);

}  // namespace weft
