// Hostile or mistaken input to the weft binary, end to end: each is refused in one line
// naming what is wrong and what is accepted, exit status 2, before it runs anything or
// fills memory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/shell.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

std::string weft() { return kBin + "/weft"; }

std::size_t lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// A schedule's body with its check, FNV-1a's low 32 bits, which anyone can compute.
std::string signed_schedule(const std::string& body) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : body) h = (h ^ c) * 0x100000001b3ull;
  char check[9];
  std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(h));
  return body + "." + check;
}

class Hostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("weft-hostile-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  // `args` of weft refused: exit 2, one line, saying `says`.
  void refused(const std::string& args, const std::string& says) {
    const Output o = sh("cd " + dir_.string() + " && " + weft() + " " + args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(says), std::string::npos) << args << "\n" << o.out;
    EXPECT_EQ(lines(o.out), 1u) << "one line: " << args << "\n" << o.out;
  }
  fs::path dir_;
};

// The program's fingerprint, from a schedule weft wrote for it.
std::string fingerprint_of(const std::string& schedule_file) {
  std::ifstream in(schedule_file);
  std::string text;
  std::getline(in, text);
  return text.substr(6, 16);
}

TEST_F(Hostile, AScheduleOfBillionsOfDecisionsIsRefusedBeforeItFillsMemory) {
  const std::string program = kBin + "/cli_deadlock";
  const std::string found = at("found.weft-schedule");
  sh(weft() + " run -q -s dfs -n 0 --schedule-out " + found + " -- " + program);
  ASSERT_TRUE(fs::exists(found));
  const std::string fp = fingerprint_of(found);
  // 50 bytes, 2^30 decisions: 8 GiB in the fork server.
  std::ofstream(at("huge")) << signed_schedule("weft1." + fp + ".pb.1.0x1073741824") << "\n";
  refused("replay huge -- " + program, "invalid schedule: it holds more than 204100 decisions");
  refused("minimize huge -- " + program, "invalid schedule: it holds more than 204100 decisions");
  // The limit follows the step bound: 5000 decisions are too many for 10 steps.
  std::ofstream(at("long")) << signed_schedule("weft1." + fp + ".pb.1.0x5000") << "\n";
  refused("replay --steps 10 long -- " + program,
          "invalid schedule: it holds more than 4120 decisions");
  const Output o = sh(weft() + " replay " + at("long") + " -- " + program);
  EXPECT_EQ(o.out.find("invalid schedule"), std::string::npos) << "within 100000 steps\n" << o.out;
}

TEST_F(Hostile, AScheduleFileIsReadOnlyUpToItsLimit) {
  const std::string program = " -- " + kBin + "/cli_deadlock";
  // A virtual memory limit: reading /dev/zero whole would fail (abort) instead of growing.
  const std::string limited = "ulimit -v 1000000; ";
  for (const char* verb : {"replay", "minimize"}) {
    const Output o = sh(limited + weft() + " " + verb + " /dev/zero" + program);
    EXPECT_EQ(o.status, 2) << o.out;
    EXPECT_NE(o.out.find("weft: schedule file '/dev/zero' has more than 4194304 bytes (4 MiB) "
                         "before its first line break"),
              std::string::npos)
        << o.out;
    EXPECT_EQ(lines(o.out), 1u) << o.out;
  }
  // Only the first line is read: what follows it does not matter.
  const std::string found = at("found.weft-schedule");
  sh(weft() + " run -q -s dfs -n 0 --schedule-out " + found + program);
  sh("head -c 6000000 /dev/zero >> " + found);
  const Output o = sh(weft() + " replay " + found + program);
  EXPECT_EQ(o.status, 1) << o.out;
  EXPECT_NE(o.out.find("bug: deadlock"), std::string::npos) << o.out;
}

// weft merge reads what the schema (docs/schema/weft-result.schema.json) promises, and
// refuses anything else naming the file and the field, rather than aborting on a type
// error or summing negative, fractional or huge counts into a "complete" claim.
TEST_F(Hostile, MergeRefusesFieldsThatAreNotAsTheSchemaHasThem) {
  const Output run = sh("cd " + dir_.string() + " && " + weft() +
                        " run -q -s dfs -n 0 --json good.json -- " + kBin + "/cli_deadlock");
  ASSERT_EQ(run.status, 1) << run.out;
  std::ifstream in(at("good.json"));
  const json good = json::parse(in, nullptr, false);
  ASSERT_FALSE(good.is_discarded());
  ASSERT_EQ(good["bugs"].size(), 1u);
  const Output merged = sh("cd " + dir_.string() + " && " + weft() + " merge good.json");
  EXPECT_EQ(merged.status, 1) << merged.out;

  const struct {
    const char* pointer;
    json value;
    const char* says;
  } bad[] = {
      {"/bugs", json::parse("[1]"), "field \"bugs[0]\" must be an object, not 1"},
      {"/coverage", json::parse("[1,2]"), "field \"coverage\" must be an object, not [1,2]"},
      {"/executions", "432", "field \"executions\" must be a whole number >= 0, not \"432\""},
      {"/executions", -5, "field \"executions\" must be a whole number >= 0, not -5"},
      {"/executions", 4.5, "field \"executions\""},
      {"/executions", 1e30, "field \"executions\""},
      {"/coverage/executions", -1, "field \"coverage.executions\""},
      {"/coverage/complete", "yes", "field \"coverage.complete\" must be true or false"},
      {"/coverage/bound", -2, "field \"coverage.bound\" must be a whole number >= -1"},
      {"/coverage/bound", ~std::uint64_t{0}, "field \"coverage.bound\" must be a whole number >= -1"},
      {"/elapsed_s", "fast", "field \"elapsed_s\""},
      {"/version", 1, "field \"version\" must be 2"},
      {"/program", 7, "field \"program\" must be a string"},
      {"/warnings", json::parse("[1]"), "field \"warnings\" must be an array of strings"},
      {"/bugs/0/hits", 0, "field \"bugs[0].hits\" must be a whole number >= 1"},
      {"/bugs/0/kind", 3, "field \"bugs[0].kind\" must be a string"},
      {"/bugs/0/location/line", "x", "field \"bugs[0].location.line\""},
      {"/bugs/0/location", nullptr, "field \"bugs[0].location\" must be an object"},
      {"/cut_executions", -1, "field \"cut_executions\""},
      // Found by fuzz/merge_results_fuzz.cpp: read with no check, and an abort.
      {"/complete", 1, "field \"complete\" must be true or false, not 1"},
  };
  for (const auto& b : bad) {
    json j = good;
    j[json::json_pointer(b.pointer)] = b.value;
    std::ofstream(at("bad.json")) << j.dump();
    refused("merge bad.json", "weft: bad.json: " + std::string(b.says));
  }
  json j = good;
  j.erase("executions");
  std::ofstream(at("bad.json")) << j.dump();
  refused("merge bad.json", "bad.json: field \"executions\" is missing");

  // Two shards whose counts add up past 2^64 - 1.
  for (int i : {0, 1}) {
    json half = good;
    half["shard"] = {{"index", i}, {"count", 2}, {"source", "--shard"}};
    half["jobs"] = 1;
    half["executions"] = ~std::uint64_t{0};
    std::ofstream(at("half" + std::to_string(i) + ".json")) << half.dump();
  }
  refused("merge half0.json half1.json",
          "cannot merge: half1.json: field \"executions\" takes the total past 18446744073709551615");

  // A shard count of 2^32 - 1: the shards expected and missing took 16 GB (found by
  // fuzz/merge_results_fuzz.cpp).
  j = good;
  j["shard"] = {{"index", 0}, {"count", 4294967295u}, {"source", "--shard"}};
  std::ofstream(at("many.json")) << j.dump();
  refused("merge many.json",
          "many.json: \"shard\" says 4294967295 shards, more than weft merge takes (1048576)");

  // One bug's hits on two shards add up past 2^64 - 1: saturated, not wrapped to 0.
  for (int i : {0, 1}) {
    json half = good;
    half["shard"] = {{"index", i}, {"count", 2}, {"source", "--shard"}};
    half["bugs"][0]["hits"] = i == 0 ? ~std::uint64_t{0} : 1u;
    std::ofstream(at("hits" + std::to_string(i) + ".json")) << half.dump();
  }
  const Output hits = sh("cd " + dir_.string() + " && " + weft() +
                         " merge --json merged.json hits0.json hits1.json");
  EXPECT_EQ(hits.status, 1) << hits.out;
  std::ifstream merged_in(at("merged.json"));
  const json m = json::parse(merged_in, nullptr, false);
  ASSERT_FALSE(m.is_discarded()) << hits.out;
  ASSERT_EQ(m["bugs"].size(), 1u) << m.dump();
  EXPECT_EQ(m["bugs"][0]["hits"], ~std::uint64_t{0});
}

// Numbers are numbers: nan does not pass a range check and turn a limit off, a negative or
// too large seed does not become 0, -n -1 is not "no limit". Each error names the option,
// the value and what is accepted, in the words WEFT_TEST uses for its WEFT_* variables.
TEST_F(Hostile, BadNumbersAreRefusedNamingTheOptionAndWhatItAccepts) {
  const std::string seconds_to_a_day = "is not valid: give seconds, a number from 0.01 to 86400";
  const std::string seconds = "is not valid: give seconds, a number from 0 to 1000000000 such as "
                              "600 or 2.5 (0: no limit)";
  const std::string seed = "is not valid: give a whole number from 0 to 18446744073709551615";
  const std::string executions = "is not valid: give a whole number of executions (0: no limit)";
  const struct {
    std::string args, says;
  } bad[] = {
      {"--hang-timeout nan", "weft: --hang-timeout: 'nan' " + seconds_to_a_day},
      {"--hang-timeout inf", "--hang-timeout: 'inf' " + seconds_to_a_day},
      {"--hang-timeout 0", "--hang-timeout: '0' " + seconds_to_a_day},
      {"--time nan", "weft: --time: 'nan' " + seconds},
      {"--time -1", "--time: '-1' " + seconds},
      {"--time 1e99", "--time: '1e99' " + seconds},
      {"--seed -1", "weft: --seed: '-1' " + seed},
      {"--seed 18446744073709551616", "--seed: '18446744073709551616' " + seed},
      {"--seed 0x10", "--seed: '0x10' " + seed},
      {"--seed 1.5", "--seed: '1.5' " + seed},
      {"-n -1", "--executions: '-1' " + executions},
      {"--executions 1e3", "--executions: '1e3' " + executions},
      {"--steps 0", "--steps: '0' is not valid: give a whole number from 1 to 50000000"},
      {"--jobs 0x10", "--jobs: '0x10' is not valid: give a whole number of workers from 1 to 256"},
  };
  for (const auto& b : bad) refused("run " + b.args + " -- " + kBin + "/cli_locked", b.says);
  refused("replay --hang-timeout nan x -- " + kBin + "/cli_locked",
          "--hang-timeout: 'nan' " + seconds_to_a_day);
}

// Whole numbers reach the program's fork server as integers, not through a double, and
// the merge of several workers' results keeps them whole too.
TEST_F(Hostile, EveryWholeSeedReachesTheSearch) {
  for (const std::string jobs : {"1", "2"})
    for (const std::string seed : {"9007199254740993", "18446744073709551615"}) {
      const std::string run = weft() + " run -j " + jobs + " -s random -n 1 --seed " + seed;
      const Output o = sh(run + " -q --json - -- " + kBin + "/cli_locked");
      EXPECT_EQ(o.status, 0) << o.out;
      const json j = json::parse(o.out, nullptr, false);
      ASSERT_FALSE(j.is_discarded()) << o.out;
      EXPECT_EQ(j["seed"].get<std::uint64_t>(), std::stoull(seed)) << jobs << "\n" << o.out;
      const Output text = sh(run + " -- " + kBin + "/cli_locked");
      EXPECT_TRUE(text.has(", seed " + seed + ",")) << jobs << "\n" << text.out;
    }
}

// The variables weft run hands the program are read by the same rules: set by hand, a bad
// one is the run's error, not a default or a rounded number.
TEST_F(Hostile, TheForkServerReadsItsVariablesAsWeftRunReadsItsOptions) {
  auto serve = [&](const std::string& env) {
    fs::remove(at("result.json"));
    sh("env WEFT_MODE=run WEFT_EXECUTIONS=1 WEFT_RESULT_DIR=" + dir_.string() + " " + env +
       " LD_PRELOAD=" + kBin + "/../lib/libweft.so " + kBin + "/cli_locked");
    std::ifstream in(at("result.json"));
    return json::parse(in, nullptr, false);
  };
  const struct {
    std::string env, error;
  } bad[] = {
      {"WEFT_SEED=-1",
       "WEFT_SEED='-1' is not valid: give a whole number from 0 to 18446744073709551615"},
      {"WEFT_TIME=nan", "WEFT_TIME='nan' is not valid: give seconds, a number from 0 to"},
      {"WEFT_HANG_TIMEOUT=inf", "WEFT_HANG_TIMEOUT='inf' is not valid: give seconds"},
      {"WEFT_STEPS=1e5", "WEFT_STEPS='1e5' is not valid: give a whole number from 1 to 50000000"},
      {"WEFT_EXECUTIONS=-1", "WEFT_EXECUTIONS='-1' is not valid: give a whole number of executions"},
      {"WEFT_EXPECT_EXIT=300", "WEFT_EXPECT_EXIT='300' is not valid: give an exit status from 0 to 255"},
  };
  for (const auto& b : bad) {
    const json j = serve(b.env);
    ASSERT_FALSE(j.is_discarded()) << b.env;
    EXPECT_EQ(j.value("error", "").rfind(b.error, 0), 0u) << b.env << "\n" << j.dump();
    EXPECT_EQ(j["executions"], 0) << b.env;
  }
  const json j = serve("WEFT_SEED=9007199254740993");
  ASSERT_FALSE(j.is_discarded());
  EXPECT_FALSE(j.contains("error")) << j.dump();
  EXPECT_EQ(j["seed"].get<std::uint64_t>(), 9007199254740993ull);
}

}  // namespace
