#include "cli/merge_results.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "core/coverage.hpp"

namespace weft::cli {
namespace {

using json = nlohmann::ordered_json;
using ojson = nlohmann::ordered_json;

struct Part {
  std::uint32_t index = 0, count = 1;
};

bool shard_of(const ShardResult& r, Part* p, std::string* error) {
  if (!r.json.is_object() || !r.json.contains("program") || !r.json.contains("coverage")) {
    *error = r.name + " is not a result of weft run --json";
    return false;
  }
  if (!r.json.contains("shard")) return true;  // an unsharded run: the whole search
  const json& s = r.json["shard"];
  if (!s.is_object() || !s.value("index", json()).is_number_unsigned() ||
      !s.value("count", json()).is_number_unsigned() || s["count"].get<std::uint32_t>() == 0 ||
      s["index"].get<std::uint32_t>() >= s["count"].get<std::uint32_t>()) {
    *error = r.name + ": malformed \"shard\" (expected {\"index\": i, \"count\": n}, i < n)";
    return false;
  }
  p->index = s["index"].get<std::uint32_t>();
  p->count = s["count"].get<std::uint32_t>();
  return true;
}

std::string brief(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// Two hits of one bug: its kind and place (the message may carry addresses).
std::string bug_key(const json& bug) {
  const json loc = bug.value("location", json::object());
  std::string key = bug.value("kind", "") + "|" + loc.value("file", "") + ":" +
                    std::to_string(loc.value("line", 0)) + "|" + loc.value("function", "");
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
        out.error = "cannot merge: " + inputs[0].name + " and " + inputs[i].name +
                    " differ in " + field + " (" + brief(a) + " vs " + brief(b) + ")";
        return out;
      }
    }
  }
  for (std::uint32_t e : expected)
    if (!by_index.contains(e)) out.missing.push_back(e);

  ojson& m = out.merged;
  m["version"] = first.value("version", 1);
  m["weft_version"] = first.value("weft_version", "");
  m["program"] = first["program"];
  m["args"] = first.value("args", json::array());
  m["strategy"] = first.value("strategy", "");
  m["seed"] = first.value("seed", 0);
  std::uint64_t executions = 0, cov_executions = 0, classes = 0, nodes = 0, peak = 0, cut = 0;
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
      nondeterminism = "shard " + std::to_string(parts[i].index) + ": " + c.value("nondeterminism", "");
    executions += r.value("executions", std::uint64_t{0});
    cut += r.value("cut_executions", std::uint64_t{0});
    elapsed = std::max(elapsed, r.value("elapsed_s", 0.0));
    instrumented |= r.value("instrumented", false);
    // Whether this part exhausted its space: the run's own flag. A bounded coverage's
    // "complete" says only that its bound was (pb: bound 0 done, bound 1 under way).
    const bool done = r.value("complete", false) && c.value("complete", false);
    complete &= done;
    any_complete |= done;
    bound_complete &= c.value("complete", false);
    cov_executions += c.value("executions", std::uint64_t{0});
    classes += c.value("classes", std::uint64_t{0});
    nodes += c.value("nodes_created", std::uint64_t{0});
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
    same_space &= r.json.value("racy_points", json::array()) == first.value("racy_points", json::array());
  complete &= same_space;
  const std::string kind = first.value("coverage", json::object()).value("kind", "none");
  const json& points_field = first.value("coverage", json::object()).value("points", json());
  const std::string points = points_field.is_string() ? points_field.get<std::string>() : "";
  // A portfolio member that exhausted a full space on one shard covers it for all.
  const bool covered = nondeterminism.empty() &&
      (kind == "portfolio" ? any_complete && out.missing.empty() && same_space : complete);
  m["executions"] = executions;
  m["elapsed_s"] = elapsed;
  m["complete"] = covered;
  m["instrumented"] = instrumented;
  m["warnings"] = warnings;
  m["max_steps"] = first.value("max_steps", std::uint64_t{0});
  m["cut_executions"] = cut;
  m["racy_points"] = first.value("racy_points", json::array());

  std::string summary = m["strategy"].get<std::string>() + ", " + std::to_string(inputs.size()) +
                        " of " + std::to_string(expected.size()) + " " + noun + "s: " +
                        std::to_string(executions) + (executions == 1 ? " execution" : " executions");
  if (classes != 0) summary += ", " + std::to_string(classes) + " happens-before classes";
  if (bounded && kind != "full" && kind != "none")
    summary += ", every " + noun + " complete to bound " + std::to_string(bound) + " (" + kind + ")";
  // A few shards: what each stated, too (a portfolio's members, a bound under way).
  if (inputs.size() <= 4)
    for (std::size_t i = 0; i < inputs.size(); ++i)
      summary += " [" + (noun == "shard" ? "shard " + std::to_string(parts[i].index) : inputs[i].name) +
                 ": " + inputs[i].json["coverage"].value("summary", "") + "]";
  if (!nondeterminism.empty())
    summary += "; " + nondeterminism + ": no coverage claim";
  else if (!same_space)
    summary += "; the " + noun + "s found different racy accesses (--preempt-on=racy), so their "
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
  // A bounded coverage's "complete" is its bound's (as one worker states it).
  const bool bound_covered = nondeterminism.empty() && same_space && out.missing.empty() &&
                             bounded && bound_complete && kind != "full" && kind != "none";
  m["coverage"] = {{"kind", kind},
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
        // Workers that shared work order their executions by the rounds they ran in.
        const std::uint64_t e = b.value("execution", std::uint64_t{1});
        const std::uint64_t place = b.contains("order") ? b.value("order", std::uint64_t{0}) : (e == 0 ? 0 : e - 1);
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
      f.bug["shard_execution"] = f.bug.value("execution", std::uint64_t{1});
      // A shared search has no unsharded numbering: the worker's own stands.
      if (!f.bug.contains("order")) f.bug["execution"] = f.global + 1;
      auto [at, fresh] = seen.emplace(bug_key(f.bug), distinct.size());
      if (fresh) {
        distinct.push_back(std::move(f));
      } else {
        json& kept = distinct[at->second].bug;
        kept["hits"] = kept.value("hits", 1) + f.bug.value("hits", 1);
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
