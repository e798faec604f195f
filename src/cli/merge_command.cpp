#include "cli/merge_command.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/command_support.hpp"
#include "cli/merge_results.hpp"
#include "cli/output_file.hpp"
#include "cli/output_paths.hpp"
#include "cli/terminal_width.hpp"
#include "core/run_record.hpp"
#include "report/text_width.hpp"

namespace weft::cli {
namespace {

// weft merge's text summary: the bugs, the shards merged, the coverage.
void print_merge_summary(const nlohmann::ordered_json& j, std::uint32_t count) {
  if (j.contains("error")) std::cout << "weft: error: " << j["error"].get<std::string>() << "\n";
  std::ostringstream text;  // fitted to the terminal, the shards' details a line each
  const auto& bugs = j["bugs"];
  for (std::size_t i = 0; i < bugs.size(); ++i) {
    const auto& b = bugs[i];
    const auto loc = b.value("location", nlohmann::ordered_json::object());
    text << (bugs.size() > 1 ? "bug " + std::to_string(i + 1) + " of " + std::to_string(bugs.size())
                             : std::string("bug"))
         << ": " << b.value("kind", "") << " at "
         << (loc.value("file", "").empty()
                 ? std::string("?")
                 : loc.value("file", "") + ":" +
                       std::to_string(loc.value("line", std::uint64_t{0})))
         << (loc.value("function", "").empty() ? "" : " (" + loc.value("function", "") + ")")
         << ": " << b.value("message", "") << "\n  found in execution "
         << b.value("execution", std::uint64_t{0}) << " by shard " << b.value("shard", 0) << "/"
         << count << " (its execution "
         << b.value("shard_execution", b.value("execution", std::uint64_t{0})) << "), "
         << b.value("preemptions", std::uint64_t{0}) << " preemptions; "
         << b.value("hits", std::uint64_t{1})
         << (b.value("hits", std::uint64_t{1}) == 1 ? " hit" : " hits") << "\n";
  }
  text << "merged " << j["shards"]["merged"].size() << " of " << count
       << " shards: " << j.value("executions", std::uint64_t{0}) << " executions\n";
  for (const std::string& line :
       weft::coverage_lines("coverage: " + j["coverage"].value("summary", "")))
    text << line << "\n";
  const std::uint64_t cut = j.value("cut_executions", std::uint64_t{0});
  const std::uint64_t max_steps = j.value("max_steps", std::uint64_t{0});
  if (cut != 0) text << "warning: " << weft::cut_executions_warning(cut, max_steps) << "\n";
  std::cout << weft::fit_lines(text.str(), terminal_width());
}

}  // namespace

// weft merge: the shards' results as one, the first bug's schedule written out.
int merge_command(const Merge& a) {
  if (std::string why = unwritable("--json", a.json); !why.empty()) return fail(why);
  if (std::string why = unwritable("--schedule-out", a.schedule_out); !why.empty())
    return fail(why);
  std::vector<NamedPath> read;
  for (const std::string& f : a.files) read.push_back({"one of the results to merge", f});
  // Checked again once the default --schedule-out is known (the program's name).
  if (std::string why =
          output_clash({{"--json", a.json}, {"--schedule-out", a.schedule_out}}, read);
      !why.empty())
    return fail(why);
  std::vector<ShardResult> inputs;
  for (const std::string& f : a.files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(f, ec)) return fail("result file '" + f + "' not found");
    auto parsed = nlohmann::ordered_json::parse(read_file(f), nullptr, false);
    if (parsed.is_discarded())
      return fail(f + " is not JSON (expected a result of weft run --json)");
    inputs.push_back({f, std::move(parsed)});
  }
  std::string error;
  const std::uint32_t count = shard_count_of(inputs, &error);
  if (count == 0) return fail(error);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < count; ++i) expected.push_back(i);
  MergeOutcome m = merge_results(inputs, count, expected);
  if (!m.error.empty()) return fail(m.error);
  const auto& j = m.merged;
  const std::string program = j.value("program", "");
  const std::string schedule_file = schedule_path(a.schedule_out, program);
  if (std::string why =
          output_clash({{"--json", a.json},
                        {a.schedule_out.empty() ? "the default --schedule-out" : "--schedule-out",
                         schedule_file}},
                       read);
      !why.empty())
    return fail(why);
  WriteErrors errors;
  const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (a.json == "-")
    std::cout << text << "\n";
  else if (!a.json.empty())
    errors.add(write_output(a.json, "the merged JSON result", text + "\n"));
  const bool has_error = j.contains("error");
  const auto& bugs = j["bugs"];
  if (a.json != "-" && (!a.quiet || !bugs.empty() || has_error)) print_merge_summary(j, count);
  if (!bugs.empty()) {
    const std::string e =
        write_output(schedule_file, "the schedule", bugs[0].value("schedule", "") + "\n");
    errors.add(e);
    if (e.empty() && a.json != "-")
      std::cout << schedule_written(schedule_file,
                                    "weft replay " + schedule_file + " -- " + program);
  }
  return errors.report(has_error ? kError : bugs.empty() ? kOk : kBug);
}

}  // namespace weft::cli
