#include "core/run_config.hpp"

#include <algorithm>
#include <type_traits>

#include "core/checkpoint.hpp"
#include "core/expected_exit.hpp"
#include "core/line_escape.hpp"
#include "core/shard.hpp"

namespace weft {
namespace {

bool one_of(const std::string& text, std::initializer_list<const char*> values) {
  return std::any_of(values.begin(), values.end(), [&](const char* v) { return text == v; });
}

}  // namespace

const TextRule RacesRule{[](const std::string& t) -> const char* {
  return one_of(t, {"", "off", "report", "fail"}) ? nullptr : "off, report or fail";
}};
const TextRule PreemptOnRule{[](const std::string& t) -> const char* {
  return one_of(t, {"", "sync", "racy", "all"}) ? nullptr : "sync, racy or all";
}};
const TextRule PatternsRule{[](const std::string& t) -> const char* {
  const bool empty_pattern =
      !t.empty() && (t.front() == ',' || t.back() == ',' || t.find(",,") != std::string::npos);
  return empty_pattern ? "PATTERN[,PATTERN...] with no empty pattern" : nullptr;
}};
const TextRule ExpectExitRule{[](const std::string& t) -> const char* {
  ExpectedExit e;
  return ExpectedExit::parse(t, &e).empty() ? nullptr : ExpectedExit::kAccepted;
}};
const TextRule ModeRule{[](const std::string& t) -> const char* {
  return one_of(t, {"run", "replay", "minimize"}) ? nullptr : "run, replay or minimize";
}};
const TextRule IsolateRule{[](const std::string& t) -> const char* {
  return one_of(t, {"fork", "restore"}) ? nullptr : "fork or restore";
}};
const TextRule CheckpointOptionsRule{[](const std::string& t) -> const char* {
  OptionList o;
  return decode_checkpoint_options(t, &o) ? nullptr : "lines of an option's name and value";
}};
const TextRule ShardRule{[](const std::string& t) -> const char* {
  Shard s;
  return Shard::parse(t, &s) && s.valid() && s.count <= Shard::kMaxCount
             ? nullptr
             : "I/N, shard I of N shards (0 <= I < N <= 1048576)";
}};
const TextRule FdRule{[](const std::string& t) -> const char* {
  const bool ok =
      t.empty() || (t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos);
  return ok ? nullptr : "a file descriptor's number";
}};

namespace {

// A value of the file as its reader takes it: "" with *out set, or what is accepted.
std::string read_value(const std::string& text, YesNo, bool* out) {
  if (text != "yes" && text != "no") return not_valid(text, "yes or no");
  *out = text == "yes";
  return "";
}
template <typename Unsigned>
std::string read_value(const std::string& text, const WholeNumber& spec, Unsigned* out) {
  std::uint64_t v = 0;
  if (std::string e = read_number(text, spec, &v); !e.empty()) return e;
  *out = static_cast<Unsigned>(v);
  return "";
}
std::string read_value(const std::string& text, const Seconds& spec, double* out) {
  return read_number(text, spec, out);
}
std::string read_value(const std::string& text, AnyText, std::string* out) {
  *out = text;
  return "";
}
std::string read_value(const std::string& text, const TextRule& rule, std::string* out) {
  if (const char* accepted = rule.check(text)) return not_valid(text, accepted);
  *out = text;
  return "";
}

std::string value_text(bool v) { return v ? "yes" : "no"; }
std::string value_text(double v) { return seconds_text(v); }
std::string value_text(const std::string& v) { return v; }
template <typename Unsigned, typename = std::enable_if_t<std::is_unsigned_v<Unsigned>>>
std::string value_text(Unsigned v) {
  return std::to_string(v);
}

// The field named `key` read from `text`: "" (set, or no such field: *known false), else
// the reader's complaint.
std::string read_field(const std::string& key, const std::string& text, RunConfig* c, bool* known) {
  *known = true;
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (key == #field) return read_value(text, reader, &c->field);
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  *known = false;
  return "";
}

}  // namespace

std::string encode_run_config(const RunConfig& c) {
  std::string out;
  const RunConfig defaults;
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (c.field != defaults.field) out += #field "=" + escape_line(value_text(c.field)) + "\n";
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return out;
}

std::string decode_run_config(std::string_view text, RunConfig* c) {
  std::vector<std::string> seen;
  for (int line_number = 1; !text.empty(); ++line_number) {
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    const std::string where = "line " + std::to_string(line_number) + ": ";
    const std::size_t eq = line.find('=');
    std::string value;
    if (eq == std::string_view::npos || !unescape_line(line.substr(eq + 1), &value))
      return where + "not field=value";
    const std::string key(line.substr(0, eq));
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return where + key + " is given twice";
    seen.push_back(key);
    bool known = false;
    if (std::string e = read_field(key, value, c, &known); !e.empty()) return where + key + "=" + e;
    if (!known) return where + "'" + key + "' is not an option this weft takes";
  }
  return "";
}

OptionList execution_options(const RunConfig& c) {
  OptionList o;
  const RunConfig defaults;
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (((roles)&kExecution) != 0 && c.field != defaults.field)            \
    o.emplace_back(name, value_text(c.field));
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return o;
}

std::vector<std::string> execution_option_names() {
  std::vector<std::string> names;
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (((roles)&kExecution) != 0) names.emplace_back(name);
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return names;
}

bool is_execution_flag(const std::string& option) {
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (((roles)&kExecution) != 0 && option == name) return std::is_same_v<Type, bool>;
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return false;
}

std::string set_execution_option(const std::string& option, const std::string& value,
                                 RunConfig* c) {
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles)                  \
  if (((roles)&kExecution) != 0 && option == name) {                                      \
    /* A schedule records a flag only when set, and a value only when not the default. */ \
    if (std::is_same_v<Type, bool> && value != "yes") return not_valid(value, "yes");     \
    return read_value(value, reader, &c->field);                                          \
  }
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return "'" + option + "' is not an option that shapes an execution";
}

OptionList search_options(const RunConfig& c) {
  OptionList o;
#define WEFT_RUN_OPTION(Type, field, default_value, reader, name, roles) \
  if (((roles)&kSearch) != 0) o.emplace_back(std::string("--") + name, value_text(c.field));
#include "core/run_config.def"
#undef WEFT_RUN_OPTION
  return o;
}

}  // namespace weft
