#include "cli/merge_results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "core/coverage.hpp"
#include "core/shard.hpp"
#include "report/json_report.hpp"

namespace weft::cli {
namespace {

using json = nlohmann::ordered_json;
using ojson = nlohmann::ordered_json;

struct Part {
  std::uint32_t index = 0, count = 1;
};

std::string cut_short(std::string s) { return s.size() > 60 ? s.substr(0, 57) + "..." : s; }

// A value as JSON writes it, cut short.
std::string shown(const json& v) {
  return cut_short(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

// What a field read by the merge must hold (docs/schema/weft-result.schema.json).
enum class Want {
  kUint,
  kPositive,
  kBound,
  kSeconds,
  kString,
  kBool,
  kObject,
  kArray,
  kStrings,
  kVersion
};

struct Field {
  const char* name;
  Want want;
  bool required;
};

// The fields the merge reads, as the schema has them: a wrong-typed one would throw from
// nlohmann's get(), and a negative, fractional or huge count would be summed.
constexpr Field kResultFields[] = {{"version", Want::kVersion, true},
                                   {"weft_version", Want::kString, true},
                                   {"program", Want::kString, true},
                                   {"args", Want::kStrings, true},
                                   {"strategy", Want::kString, true},
                                   {"seed", Want::kUint, true},
                                   {"racy_points", Want::kStrings, true},
                                   {"executions", Want::kUint, true},
                                   {"elapsed_s", Want::kSeconds, true},
                                   {"complete", Want::kBool, true},
                                   {"instrumented", Want::kBool, true},
                                   {"warnings", Want::kStrings, true},
                                   {"coverage", Want::kObject, true},
                                   {"bugs", Want::kArray, true},
                                   {"races", Want::kArray, true},
                                   {"shard", Want::kObject, false},
                                   {"max_steps", Want::kUint, false},
                                   {"cut_executions", Want::kUint, false},
                                   {"restored_executions", Want::kUint, false},
                                   {"error", Want::kString, false},
                                   {"note", Want::kString, false},
                                   {"interrupted", Want::kString, false}};
constexpr Field kCoverageFields[] = {
    {"kind", Want::kString, true},          {"complete", Want::kBool, true},
    {"bound", Want::kBound, true},          {"executions", Want::kUint, true},
    {"classes", Want::kUint, true},         {"nodes_created", Want::kUint, true},
    {"peak_nodes", Want::kUint, true},      {"summary", Want::kString, true},
    {"nondeterminism", Want::kString, true}};
constexpr Field kBugFields[] = {{"kind", Want::kString, true},
                                {"message", Want::kString, true},
                                {"execution", Want::kPositive, true},
                                {"preemptions", Want::kUint, true},
                                {"schedule", Want::kString, true},
                                {"hits", Want::kPositive, true},
                                {"location", Want::kObject, true},
                                {"order", Want::kUint, false},
                                {"shard_execution", Want::kPositive, false}};
constexpr Field kLocationFields[] = {
    {"function", Want::kString, true}, {"file", Want::kString, true}, {"line", Want::kUint, true}};

constexpr std::uint64_t kMaxMergedShards = Shard::kMaxCount;  // what --shard takes

bool holds(const json& v, Want want) {
  switch (want) {
    case Want::kUint: return v.is_number_unsigned();
    case Want::kPositive: return v.is_number_unsigned() && v.get<std::uint64_t>() >= 1;
    case Want::kBound:  // read as an int64: 2^64 - 1 must not pass for -1
      return v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT64_MAX
                                    : v.is_number_integer() && v.get<std::int64_t>() >= -1;
    case Want::kSeconds:
      return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0;
    case Want::kString: return v.is_string();
    case Want::kBool: return v.is_boolean();
    case Want::kObject: return v.is_object();
    case Want::kArray: return v.is_array();
    case Want::kStrings:
      return v.is_array() &&
             std::all_of(v.begin(), v.end(), [](const json& s) { return s.is_string(); });
    case Want::kVersion:
      return v.is_number_unsigned() && v.get<std::uint64_t>() == kJsonReportVersion;
  }
  return false;
}

const char* described(Want want) {
  switch (want) {
    case Want::kUint: return "a whole number >= 0";
    case Want::kPositive: return "a whole number >= 1";
    case Want::kBound: return "a whole number >= -1";
    case Want::kSeconds: return "a number of seconds >= 0";
    case Want::kString: return "a string";
    case Want::kBool: return "true or false";
    case Want::kObject: return "an object";
    case Want::kArray: return "an array";
    case Want::kStrings: return "an array of strings";
    case Want::kVersion: return "2, the version this weft reads";
  }
  return "";
}

// `object`'s fields as `fields` want them; "" or the first that is not, named by its path.
template <std::size_t N>
std::string check_fields(const json& object, const Field (&fields)[N], const std::string& path) {
  for (const Field& f : fields) {
    const std::string name = path + f.name;
    if (!object.contains(f.name)) {
      if (f.required)
        return "field \"" + name + "\" is missing (expected " + described(f.want) + ")";
    } else if (!holds(object[f.name], f.want)) {
      return "field \"" + name + "\" must be " + described(f.want) + ", not " +
             shown(object[f.name]);
    }
  }
  return "";
}

// "" or the first field of a result that is not as the schema has it.
std::string check_result(const json& r) {
  if (std::string e = check_fields(r, kResultFields, ""); !e.empty()) return e;
  if (std::string e = check_fields(r["coverage"], kCoverageFields, "coverage."); !e.empty())
    return e;
  for (const char* list : {"bugs", "races"})
    for (std::size_t i = 0; i < r[list].size(); ++i) {
      const json& bug = r[list][i];
      const std::string path = std::string(list) + "[" + std::to_string(i) + "]";
      if (!bug.is_object()) return "field \"" + path + "\" must be an object, not " + shown(bug);
      if (std::string e = check_fields(bug, kBugFields, path + "."); !e.empty()) return e;
      if (std::string e = check_fields(bug["location"], kLocationFields, path + ".location.");
          !e.empty())
        return e;
    }
  return "";
}

bool shard_of(const ShardResult& r, Part* p, std::string* error) {
  if (!r.json.is_object() || !r.json.contains("program") || !r.json.contains("coverage")) {
    *error = r.name + " is not a result of weft run --json";
    return false;
  }
  if (std::string e = check_result(r.json); !e.empty()) {
    *error = r.name + ": " + e;
    return false;
  }
  if (!r.json.contains("shard")) return true;  // an unsharded run: the whole search
  const json& s = r.json["shard"];
  if (!s.is_object() || !s.value("index", json()).is_number_unsigned() ||
      !s.value("count", json()).is_number_unsigned() || s["count"].get<std::uint64_t>() == 0 ||
      s["count"].get<std::uint64_t>() > 0xffffffffu ||
      s["index"].get<std::uint64_t>() >= s["count"].get<std::uint64_t>()) {
    *error = r.name + ": malformed \"shard\" (expected {\"index\": i, \"count\": n}, i < n)";
    return false;
  }
  // The merge lists the shards it expects and those missing: a count of 2^32 - 1 took
  // 16 GB before one was compared.
  if (s["count"].get<std::uint64_t>() > kMaxMergedShards) {
    *error = r.name + ": \"shard\" says " + std::to_string(s["count"].get<std::uint64_t>()) +
             " shards, more than weft merge takes (" + std::to_string(kMaxMergedShards) + ")";
    return false;
  }
  p->index = s["index"].get<std::uint32_t>();
  p->count = s["count"].get<std::uint32_t>();
  return true;
}

std::string brief(const json& v) {
  return v.is_string() ? cut_short(v.get<std::string>()) : shown(v);
}

// Two hits of one bug: its kind and place (the message may carry addresses).
std::string bug_key(const json& bug) {
  const json loc = bug.value("location", json::object());
  std::string key = bug.value("kind", "") + "|" + loc.value("file", "") + ":" +
                    std::to_string(loc.value("line", std::uint64_t{0})) + "|" +
                    loc.value("function", "");
  if (loc.value("file", "").empty()) key += "|" + bug.value("message", "");
  return key;
}

std::string list(const std::vector<std::uint32_t>& v) {
  std::string s;
  for (std::uint32_t i : v) s += (s.empty() ? "" : ", ") + std::to_string(i);
  return s;
}

}  // namespace

std::uint32_t shard_count_of(const std::vector<ShardResult>& inputs, std::string* error) {
  std::uint32_t count = 0;
  std::string first;
  for (const ShardResult& r : inputs) {
    Part p;
    if (!shard_of(r, &p, error)) return 0;
    if (count == 0) {
      count = p.count;
      first = r.name;
    } else if (p.count != count) {
      *error = "cannot merge: " + first + " is one of " + std::to_string(count) + " shards, " +
               r.name + " one of " + std::to_string(p.count);
      return 0;
    }
  }
  return count;
}

MergeOutcome merge_results(const std::vector<ShardResult>& inputs, std::uint32_t count,
                           const std::vector<std::uint32_t>& expected, bool first_bug_only,
                           const std::string& noun) {
  MergeOutcome out;
  if (inputs.empty()) {
    out.error = "no results to merge";
    return out;
  }
  std::vector<Part> parts(inputs.size());
  std::map<std::uint32_t, std::size_t> by_index;
  const json& first = inputs[0].json;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!shard_of(inputs[i], &parts[i], &out.error)) return out;
    if (parts[i].count != count) {
      out.error = "cannot merge: " + inputs[i].name + " is shard " +
                  std::to_string(parts[i].index) + "/" + std::to_string(parts[i].count) +
                  ", not one of " + std::to_string(count) + " shards";
      return out;
    }
    if (auto [at, fresh] = by_index.emplace(parts[i].index, i); !fresh) {
      out.error = "cannot merge: shard " + std::to_string(parts[i].index) + "/" +
                  std::to_string(count) + " given twice (" + inputs[at->second].name + ", " +
                  inputs[i].name + ")";
      return out;
    }
    // The same search: program, arguments, strategy, seed, and weft (its numbering).
    for (const char* field : {"program", "args", "strategy", "seed", "weft_version", "version"}) {
      const json a = first.value(field, json()), b = inputs[i].json.value(field, json());
      if (a != b) {
        out.error = "cannot merge: " + inputs[0].name + " and " + inputs[i].name + " differ in " +
                    field + " (" + brief(a) + " vs " + brief(b) + ")";
        return out;
      }
    }
  }
  for (std::uint32_t e : expected)
    if (!by_index.contains(e)) out.missing.push_back(e);

  ojson& m = out.merged;
  m["version"] = kJsonReportVersion;
  m["weft_version"] = first.value("weft_version", "");
  m["program"] = first["program"];
  m["args"] = first.value("args", json::array());
  m["strategy"] = first.value("strategy", "");
  m["seed"] = first.value("seed", std::uint64_t{0});
  std::uint64_t executions = 0, cov_executions = 0, classes = 0, nodes = 0, peak = 0, cut = 0,
                restored = 0;
  double elapsed = 0;
  bool complete = out.missing.empty(), any_complete = false, instrumented = false;
  bool bounded = true, bound_complete = true;
  std::int64_t bound = std::numeric_limits<std::int64_t>::max();
  std::set<std::string> warnings_seen;
  ojson warnings = ojson::array();
  std::string error;
  std::string nondeterminism;  // the first shard's that saw its program diverge
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const json& r = inputs[i].json;
    const json c = r.value("coverage", json::object());
    if (nondeterminism.empty() && !c.value("nondeterminism", "").empty())
      nondeterminism =
          "shard " + std::to_string(parts[i].index) + ": " + c.value("nondeterminism", "");
    // Counts past 2^64 - 1 would wrap into a small, false total.
    const struct {
      std::uint64_t* sum;
      const json& in;
      const char* key;
      const char* field;
    } sums[] = {{&executions, r, "executions", "executions"},
                {&cut, r, "cut_executions", "cut_executions"},
                {&restored, r, "restored_executions", "restored_executions"},
                {&cov_executions, c, "executions", "coverage.executions"},
                {&classes, c, "classes", "coverage.classes"},
                {&nodes, c, "nodes_created", "coverage.nodes_created"}};
    for (const auto& [sum, in, key, field] : sums) {
      const std::uint64_t v = in.value(key, std::uint64_t{0});
      if (v > std::numeric_limits<std::uint64_t>::max() - *sum) {
        out.error = "cannot merge: " + inputs[i].name + ": field \"" + field +
                    "\" takes the total past 18446744073709551615";
        return out;
      }
      *sum += v;
    }
    elapsed = std::max(elapsed, r.value("elapsed_s", 0.0));
    instrumented |= r.value("instrumented", false);
    // Whether this part exhausted its space: the run's own flag. A bounded coverage's
    // "complete" says only that its bound was (pb: bound 0 done, bound 1 under way).
    const bool done = r.value("complete", false) && c.value("complete", false);
    complete &= done;
    any_complete |= done;
    bound_complete &= c.value("complete", false);
    peak = std::max(peak, c.value("peak_nodes", std::uint64_t{0}));
    const std::int64_t b = c.value("bound", std::int64_t{-1});
    if (b < 0) bounded = false;
    bound = std::min(bound, b);
    for (const json& w : r.value("warnings", json::array()))
      if (w.is_string() && warnings_seen.insert(w.get<std::string>()).second) warnings.push_back(w);
    if (error.empty() && r.contains("error"))
      error = "shard " + std::to_string(parts[i].index) + " (" + inputs[i].name +
              "): " + brief(r["error"]);
  }
  // Racy accesses become scheduling points as they are found (--preempt-on=racy): shards
  // that ended with different ones covered parts of different spaces.
  bool same_space = true;
  for (const ShardResult& r : inputs)
    same_space &=
        r.json.value("racy_points", json::array()) == first.value("racy_points", json::array());
  complete &= same_space;
  const json& first_coverage = first["coverage"];  // an object: check_result() saw to it
  const std::string kind = first_coverage.value("kind", "none");
  const json points_field = first_coverage.value("points", json());
  const std::string points = points_field.is_string() ? points_field.get<std::string>() : "";
  // A portfolio member that exhausted a full space on one shard covers it for all.
  const bool covered =
      nondeterminism.empty() &&
      (kind == "portfolio" ? any_complete && out.missing.empty() && same_space : complete);
  m["executions"] = executions;
  m["elapsed_s"] = elapsed;
  m["complete"] = covered;
  m["instrumented"] = instrumented;
  m["warnings"] = warnings;
  m["max_steps"] = first.value("max_steps", std::uint64_t{0});
  m["cut_executions"] = cut;
  m["restored_executions"] = restored;
  m["racy_points"] = first.value("racy_points", json::array());

  std::string summary = m["strategy"].get<std::string>() + ", " + std::to_string(inputs.size()) +
                        " of " + std::to_string(expected.size()) + " " + noun +
                        "s: " + std::to_string(executions) +
                        (executions == 1 ? " execution" : " executions");
  if (classes != 0) summary += ", " + std::to_string(classes) + " happens-before classes";
  if (bounded && kind != "full" && kind != "none")
    summary +=
        ", every " + noun + " complete to bound " + std::to_string(bound) + " (" + kind + ")";
  // A few shards: what each stated, too (a portfolio's members, a bound under way).
  if (inputs.size() <= 4)
    for (std::size_t i = 0; i < inputs.size(); ++i)
      summary += " [" +
                 (noun == "shard" ? "shard " + std::to_string(parts[i].index) : inputs[i].name) +
                 ": " + inputs[i].json["coverage"].value("summary", "") + "]";
  if (!nondeterminism.empty())
    summary += "; " + nondeterminism + ": no coverage claim";
  else if (!same_space)
    summary += "; the " + noun +
               "s found different racy accesses (--preempt-on=racy), so their "
               "spaces differ: no coverage claim";
  else if (!out.missing.empty())
    summary += "; shard" + std::string(out.missing.size() == 1 ? " " : "s ") + list(out.missing) +
               " of " + std::to_string(count) + " missing: no coverage claim";
  else if (kind == "none")
    summary += "; sampling: no coverage claim";
  else if (!covered)
    summary += "; not complete";
  else if (const std::string scope = points_scope(points); !scope.empty())
    summary += "; complete: every schedule explored (points: " + scope + ")";
  else
    summary += "; complete: the whole space explored";
  // Every shard stopped with the same note (the program created no thread): so does the
  // merge.
  const std::string note = first.value("note", "");
  bool same = out.missing.empty() && !note.empty();
  for (const ShardResult& r : inputs) same &= r.json.value("note", "") == note;
  if (same) {
    summary = note;
    m["note"] = note;
  }
  // A signal stopped some part early (every worker of one weft run gets it): so was the whole.
  for (const ShardResult& r : inputs)
    if (r.json.contains("interrupted") && !m.contains("interrupted"))
      m["interrupted"] = r.json["interrupted"];
  // A bounded coverage's "complete" is its bound's (as one worker states it).
  const bool bound_covered = nondeterminism.empty() && same_space && out.missing.empty() &&
                             bounded && bound_complete && kind != "full" && kind != "none";
  m["coverage"] = {
      {"kind", kind},
      {"complete", covered || (kind != "portfolio" && bound_covered)},
      {"bound", bounded && bound != std::numeric_limits<std::int64_t>::max() ? bound : -1},
      {"executions", cov_executions},
      {"classes", classes},
      {"nodes_created", nodes},
      {"peak_nodes", peak},
      {"summary", summary},
      {"nondeterminism", nondeterminism}};
  if (!points.empty()) m["coverage"]["points"] = points;
  ojson shards = {{"count", count}, {"merged", ojson::array()}, {"missing", out.missing}};
  for (const auto& [index, at] : by_index) shards["merged"].push_back(index);
  m["shards"] = shards;
  if (!error.empty()) m["error"] = error;

  // Bugs in the unsharded numbering; a bug hit by several shards once, with every hit.
  struct Found {
    std::uint64_t global;
    std::size_t input;
    json bug;
  };
  auto gather = [&](const char* field) {
    std::vector<Found> all;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      for (const json& b : inputs[i].json.value(field, json::array())) {
        // A part numbers its bugs in the whole search already when it says its own count
        // (shard_execution); else its count is turned into the whole search's.
        const std::uint64_t e = b.value("execution", std::uint64_t{1});
        if (b.contains("shard_execution")) {
          all.push_back({e - 1, i, b});
          continue;
        }
        // Workers that shared work order their executions by the rounds they ran in.
        const std::uint64_t place =
            b.contains("order") ? b.value("order", std::uint64_t{0}) : e - 1;
        all.push_back({parts[i].index + std::uint64_t{count} * place, i, b});
      }
    std::stable_sort(all.begin(), all.end(),
                     [](const Found& a, const Found& b) { return a.global < b.global; });
    std::vector<Found> distinct;
    std::map<std::string, std::size_t> seen;
    if (first_bug_only && std::string(field) == "bugs" && all.size() > 1) all.resize(1);
    for (Found& f : all) {
      // Numbered as the unsharded search numbers it; the shard's own number kept.
      f.bug["shard"] = parts[f.input].index;
      if (!f.bug.contains("shard_execution")) {
        f.bug["shard_execution"] = f.bug.value("execution", std::uint64_t{1});
        f.bug["execution"] = f.global + 1;
      }
      auto [at, fresh] = seen.emplace(bug_key(f.bug), distinct.size());
      if (fresh) {
        distinct.push_back(std::move(f));
      } else {
        json& kept = distinct[at->second].bug;
        // Saturating: a sum past 2^64 - 1 would wrap to a bug hit 0 times.
        const std::uint64_t a = kept.value("hits", std::uint64_t{1}),
                            b = f.bug.value("hits", std::uint64_t{1});
        kept["hits"] = a > std::numeric_limits<std::uint64_t>::max() - b
                           ? std::numeric_limits<std::uint64_t>::max()
                           : a + b;
      }
    }
    return distinct;
  };
  const std::vector<Found> bugs = gather("bugs");
  if (!bugs.empty()) out.winner = static_cast<int>(bugs[0].input);
  m["bugs"] = ojson::array();
  for (const Found& f : bugs) m["bugs"].push_back(f.bug);
  m["races"] = ojson::array();
  for (const Found& f : gather("races")) m["races"].push_back(f.bug);
  return out;
}

}  // namespace weft::cli
