#pragma once
// What weft run hands its program's fork server: every option once (run_config.def), the
// one struct they make, the file it travels in, read strictly, and the lists schedules and
// checkpoints record.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/numbers.hpp"

namespace weft {

enum RunOptionRole : unsigned { kPlain = 0, kExecution = 1, kSearch = 2 };

// The readers of run_config.def: each checks a value of the file and says what it accepts.
struct YesNo {};    // a flag: yes or no
struct AnyText {};  // any text (what reads it later says what is wrong)
struct TextRule {   // a text that check() accepts: "" or what is accepted instead
  const char* (*check)(const std::string& text);
};
inline constexpr WholeNumber kColumnsNumber{0, 99999, "a number of columns from 0 to 99999"};
inline constexpr std::uint64_t kDefaultColumns = 100;  // report/text_width.hpp's default
inline constexpr WholeNumber kWorkerNumber{0, kJobsNumber.hi - 1,
                                           "a worker's number from 0 to 255"};
extern const TextRule RacesRule, PreemptOnRule, PatternsRule, ExpectExitRule, ModeRule,
    CheckpointOptionsRule, ShardRule, FdRule, IsolateRule;

struct RunConfig {
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) Type field = default_value;
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
};

// The run file's name in the server's result directory, and the variable that names the
// file: the one variable weft run sets for its server (its presence makes one).
inline constexpr const char* kRunConfigFile = "run-options";
inline constexpr const char* kRunConfigVariable = "WEFT_RUN_OPTIONS";

// One "field=value" line per option not at its default (the reader's default is the
// same table's); a value's '\' and newlines escaped.
std::string encode_run_config(const RunConfig& c);

// The file's text into *c: "" or one line naming the first line that is not a field or
// whose value the field's reader refuses (and what it accepts). A field left out keeps
// its default; none may appear twice.
std::string decode_run_config(std::string_view text, RunConfig* c);

using OptionList = std::vector<std::pair<std::string, std::string>>;

// The kExecution options not at their default, by name ("races", "steps"), flags as
// "yes": what a schedule of this run records (weft3).
OptionList execution_options(const RunConfig& c);

// The kExecution options' names, in the table's order.
std::vector<std::string> execution_option_names();

// Whether `name` is a kExecution option that is a flag ("real-time").
bool is_execution_flag(const std::string& name);

// Sets kExecution option `name` as a schedule recorded it: "" or why not (an option or a
// value this weft does not take).
std::string set_execution_option(const std::string& name, const std::string& value, RunConfig* c);

// Every kSearch option as "--name" and its value (flags "yes"/"no"): what a checkpoint of
// this run records and a resumed run must match.
OptionList search_options(const RunConfig& c);

}  // namespace weft
