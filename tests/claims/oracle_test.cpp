// The claims oracle: the strategies checked against each other on generated programs
// (oracle_program.c, one per seed). For each program small enough that dfs completes, the
// outcomes (exit statuses, assertions, deadlocks) every complete search reaches must be
// dfs's, whatever the strategy, state caching, worker count or sharding; a bounded claim
// (pb:1) must equal dfs bounded alike, and vb's only what dfs reaches (all of it when vb
// says its bounds left nothing out); a search stopped by its budget never says complete.
// Every access is a scheduling point (--preempt-on all, races off), but for the programs'
// atomic regions (--no-preempt-in, for every search, with WEFT_ORACLE_REGIONS=1): the
// space is the one every strategy claims to cover. A search with race detection on (--races report), whose points are the
// synchronisation and the accesses it sees racing, must reach the same.
//
// dpor claims one execution per happens-before class: the classes of its executions
// (WEFT_CLASS_LOG, strategy/happens_before_class.hpp) must be exactly those dfs's
// executions fall into, and it may run a class twice only in the executions it counts
// as redundant (sleep-set blocked). The class log changes nothing in what runs: the
// searches checked are the ones users run.
//
// WEFT_ORACLE_SEEDS, or WEFT_ORACLE_FIRST and WEFT_ORACLE_COUNT, choose the seeds (make
// test runs seeds 1-60 in two parts; make check-claims N=... as many as asked). A
// disagreement prints the program and both commands, ready to paste.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/shell.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WEFT_BIN_DIR;
using weft::test::Output;
using weft::test::sh;

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

// The seeds: WEFT_ORACLE_SEEDS, a comma-separated list (programs that once disagreed), or
// WEFT_ORACLE_COUNT of them from WEFT_ORACLE_FIRST.
std::vector<std::uint64_t> oracle_seeds() {
  std::vector<std::uint64_t> seeds;
  if (const char* list = std::getenv("WEFT_ORACLE_SEEDS"); list != nullptr && *list != '\0') {
    std::stringstream items(list);
    for (std::string item; std::getline(items, item, ',');) {
      char* end = nullptr;
      seeds.push_back(std::strtoull(item.c_str(), &end, 10));
      if (item.empty() || *end != '\0') ADD_FAILURE() << "WEFT_ORACLE_SEEDS='" << list << "': seeds and commas";
    }
    return seeds;
  }
  const std::uint64_t first = env_number("WEFT_ORACLE_FIRST", 1);
  const std::uint64_t count = env_number("WEFT_ORACLE_COUNT", 40);
  for (std::uint64_t seed = first; seed < first + count; ++seed) seeds.push_back(seed);
  return seeds;
}

// Each reached outcome once: an exit status, an assertion's line, a deadlock.
using Outcomes = std::set<std::string>;

struct Search {
  bool ok = false;  // weft answered with a result
  bool complete = false;
  std::uint64_t executions = 0;
  std::uint64_t redundant = 0;  // executions the strategy says repeat a class
  bool whole = false;  // a bounded search whose bounds left nothing out says so
  Outcomes outcomes;
  std::string command, error;
};

Outcomes outcomes_of(const nlohmann::json& r) {
  Outcomes out;
  for (const auto& b : r.value("bugs", nlohmann::json::array())) {
    const std::string kind = b.value("kind", "");
    const auto loc = b.value("location", nlohmann::json::object());
    if (kind == "exit-code" || kind == "crash")
      out.insert(kind + ": " + b.value("message", ""));
    else if (kind == "assertion")
      out.insert(kind + " at line " + std::to_string(loc.value("line", 0)));
    else
      out.insert(kind);  // a deadlock's text names whichever thread blocked last
  }
  return out;
}

class Oracle : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("weft-oracle-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string program(std::uint64_t seed) const {
    return kBin + "/claims_oracle_program " + std::to_string(seed);
  }
  // `options`, after "racy: ": with race detection, the racing accesses as points; after
  // "detecting: ": with race detection, every access a point (what "racy: " is checked
  // against: detection finds bugs, a use of freed memory, that a run without it does not).
  // With WEFT_ORACLE_REGIONS=1, every search runs the program's atomic regions without
  // preemption (make test: seeds 1-30 and the seeds that once disagreed).
  static std::string points(std::string* options) {
    const std::string regions =
        env_number("WEFT_ORACLE_REGIONS", 0) != 0 ? " --no-preempt-in 'oracle_atomic_region*'" : "";
    for (const auto& [prefix, points] : {std::pair{"racy: ", "--races report --preempt-on racy"},
                                         std::pair{"detecting: ", "--races report --preempt-on all"}})
      if (options->starts_with(prefix)) {
        *options = options->substr(std::string(prefix).size());
        return points + regions;
      }
    return "--races off --preempt-on all" + regions;
  }
  // class_log: where each execution's happens-before class goes ("" nowhere).
  Search run(std::string options, std::uint64_t seed, std::uint64_t budget,
             const std::string& class_log = "") {
    Search s;
    const std::string tail = points(&options) + " --keep-going -n " + std::to_string(budget) +
                             " " + options + " -- " + program(seed);
    s.command = kBin + "/weft run " + tail;
    const std::string env = class_log.empty() ? "" : "WEFT_CLASS_LOG=" + class_log + " ";
    Output o = sh("cd " + dir_.string() + " && " + env + kBin + "/weft run --json - " + tail, errors());
    return read(o, std::move(s));
  }
  // Two shards of one search, merged.
  Search sharded(std::string options, std::uint64_t seed, std::uint64_t budget) {
    Search s;
    const std::string base = kBin + "/weft run " + points(&options) + " --keep-going -n " +
                             std::to_string(budget) + " " + options;
    const std::string a = (dir_ / "shard0.json").string(), b = (dir_ / "shard1.json").string();
    s.command = base + " --shard 0/2 --json " + a + " -- " + program(seed) + "; " + base +
                " --shard 1/2 --json " + b + " -- " + program(seed) + "; " + kBin +
                "/weft merge --json - " + a + " " + b;
    Output o = sh("cd " + dir_.string() + " && (" + base + " --shard 0/2 --json " + a + " -- " +
                      program(seed) + " >/dev/null; " + base + " --shard 1/2 --json " + b +
                      " -- " + program(seed) + " >/dev/null; " + kBin + "/weft merge --json - " +
                      a + " " + b + ")",
                  errors());
    return read(o, std::move(s));
  }
  // Where a search's stderr goes: read back when it gave no result.
  std::string errors() const { return "2>" + (dir_ / "stderr.txt").string(); }
  Search read(const Output& o, Search s) const {
    const std::size_t start = o.out.rfind("\n{\n") == std::string::npos ? 0 : o.out.rfind("\n{\n") + 1;
    const auto j = nlohmann::json::parse(o.out.substr(start), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      std::ifstream in(dir_ / "stderr.txt");
      const std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      s.error = "no JSON result (exit status " + std::to_string(o.status) + "): " +
                o.out.substr(0, 400) + "\nstderr: " + err.substr(0, 2000);
      return s;
    }
    if (j.contains("error")) {
      s.error = j["error"].dump();
      return s;
    }
    s.ok = true;
    s.complete = j.value("complete", false);
    s.executions = j.value("executions", std::uint64_t{0});
    const auto coverage = j.value("coverage", nlohmann::json::object());
    s.redundant = coverage.value("executions", std::uint64_t{0}) - coverage.value("classes", std::uint64_t{0});
    s.whole = coverage.value("summary", "").find("every schedule") != std::string::npos;
    s.outcomes = outcomes_of(j);
    return s;
  }
  fs::path dir_;
};

// The happens-before classes a search's executions fell into (WEFT_CLASS_LOG): those of
// the executions that ran to their end, and how many ended in a failure instead.
struct Classes {
  std::set<std::string> whole;
  std::uint64_t whole_executions = 0, failed = 0;
};

Classes read_classes(const fs::path& log) {
  Classes c;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.ends_with(" failed")) {
      ++c.failed;
      continue;
    }
    c.whole.insert(line);
    ++c.whole_executions;
  }
  return c;
}

std::string show(const Outcomes& o) {
  std::string s;
  for (const std::string& x : o) s += (s.empty() ? "" : ", ") + x;
  return "{" + s + "}";
}

// dpor's executions that ran to their end fall into exactly dfs's classes, each once but
// for those it counts as redundant.
void expect_one_execution_per_class(const Classes& all, const Classes& got, const Search& s,
                                    std::uint64_t seed, const Search& ref) {
  const std::string program = sh(kBin + "/claims_oracle_program " + std::to_string(seed) + " --describe").out;
  EXPECT_EQ(got.whole, all.whole) << "dpor's happens-before classes are not dfs's (" << got.whole.size()
                                  << " against " << all.whole.size() << "):\n" << program << "  "
                                  << ref.command << "\n  " << s.command
                                  << "\n  (WEFT_CLASS_LOG=FILE writes each execution's class)";
  EXPECT_LE(got.whole_executions - got.whole.size(), s.redundant)
      << "dpor ran a class twice and did not count it redundant:\n" << program << "  " << s.command;
  EXPECT_EQ(got.whole_executions + got.failed, s.executions) << s.command;
}

TEST_F(Oracle, CompleteSearchesReachTheSameOutcomes) {
  const std::vector<std::uint64_t> seeds = oracle_seeds();
  ASSERT_FALSE(seeds.empty());
  // What every program is checked with, and a rotation of the rest (each program gets two).
  const std::vector<std::string> rotation = {
      "-s pb --jobs 1",          "-s db --jobs 1",         "-s bf --jobs 1",
      "-s dpor --jobs 2",        "-s pb --jobs 2",         "-s dfs --jobs 2",
      "-s bf:pb,dpor --jobs 1", "shards: -s dpor --jobs 1",
      "shards: -s dfs --jobs 1", "racy: -s dpor --jobs 1", "racy: -s pb --jobs 2",
      "racy: -s dfs --jobs 1"};
  constexpr std::uint64_t kReferenceBudget = 600, kBudget = 5000;
  std::uint64_t checked = 0, skipped = 0, searches = 0;
  for (const std::uint64_t seed : seeds) {
    const fs::path ref_log = dir_ / "dfs.classes", log = dir_ / "search.classes";
    fs::remove(ref_log);
    const Search ref = run("-s dfs --jobs 1", seed, kReferenceBudget, ref_log.string());
    ASSERT_TRUE(ref.ok) << ref.command << "\n" << ref.error;
    if (!ref.complete) {  // too large for the reference: another seed
      ++skipped;
      continue;
    }
    ++checked;
    std::vector<std::string> configs = {"-s dpor --jobs 1", rotation[seed % rotation.size()],
                                        rotation[(seed / rotation.size() + seed + 3) % rotation.size()]};
    // Without state caching (vb has none) only where the space is small.
    if (ref.executions <= 50) {
      configs.push_back(seed % 2 ? "-s dfs --no-state-cache --jobs 1" : "-s pb --no-state-cache --jobs 1");
      configs.push_back("-s vb:3,6 --jobs 1");
    }
    std::optional<Search> detecting;  // the reference of the "racy: " searches
    for (const std::string& config : configs) {
      const bool shards = config.starts_with("shards: ");
      if (config.starts_with("racy: ") && !detecting) {
        detecting = run("detecting: -s dfs --jobs 1", seed, kBudget);
        ASSERT_TRUE(detecting->ok) << detecting->command << "\n" << detecting->error;
        EXPECT_TRUE(detecting->complete) << "the same space as dfs's, within " << kBudget << ":\n"
                                         << detecting->command;
      }
      const Search& want = config.starts_with("racy: ") ? *detecting : ref;
      const bool counted = config.starts_with("-s dpor ");
      fs::remove(log);
      const Search s = shards    ? sharded(config.substr(8), seed, kBudget)
                       : counted ? run(config, seed, kBudget, log.string())
                                 : run(config, seed, kBudget);
      ++searches;
      ASSERT_TRUE(s.ok) << s.command << "\n" << s.error;
      if (s.executions >= kBudget) {
        EXPECT_FALSE(s.complete) << "a search its budget stopped claims complete:\n" << s.command;
        continue;
      }
      EXPECT_TRUE(s.complete) << "not complete within " << kBudget << " executions where dfs needed "
                              << want.executions << ":\n" << s.command;
      if (config.starts_with("-s vb:") && !s.whole) {  // bounded: some of dfs's outcomes
        EXPECT_TRUE(std::includes(want.outcomes.begin(), want.outcomes.end(), s.outcomes.begin(),
                                  s.outcomes.end()))
            << "outcomes dfs does not reach:\n" << sh(program(seed) + " --describe").out << "  "
            << want.command << "\n    reaches " << show(want.outcomes) << "\n  " << s.command
            << "\n    reaches " << show(s.outcomes);
        continue;
      }
      EXPECT_EQ(s.outcomes, want.outcomes)
          << "the outcomes differ on this program:\n"
          << sh(program(seed) + " --describe").out << "  " << want.command << "\n    reaches "
          << show(want.outcomes) << "\n  " << s.command << "\n    reaches " << show(s.outcomes);
      if (counted) expect_one_execution_per_class(read_classes(ref_log), read_classes(log), s, seed, ref);
    }
    // A bounded claim is dfs's bounded alike.
    if (seed % 3 == 0) {
      const Search pb1 = run("-s pb:1 --jobs 1", seed, kBudget);
      const Search dfs1 = run("-s dfs --bound pb:1 --jobs 1", seed, kBudget);
      searches += 2;
      ASSERT_TRUE(pb1.ok && dfs1.ok) << pb1.error << dfs1.error;
      EXPECT_EQ(pb1.outcomes, dfs1.outcomes)
          << "bound 1 differs:\n" << sh(program(seed) + " --describe").out << "  " << pb1.command
          << "\n    reaches " << show(pb1.outcomes) << "\n  " << dfs1.command << "\n    reaches "
          << show(dfs1.outcomes);
    }
  }
  std::printf("oracle: seeds %llu-%llu: %llu programs checked (%llu searches against dfs), %llu too large for the reference\n",
              static_cast<unsigned long long>(seeds.front()), static_cast<unsigned long long>(seeds.back()),
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(searches),
              static_cast<unsigned long long>(skipped));
  EXPECT_GT(checked, seeds.size() / 2) << "most generated programs must be small enough to check";
}

}  // namespace
