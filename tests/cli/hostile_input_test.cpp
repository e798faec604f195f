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
      {"/version", 2, "field \"version\" must be 1"},
      {"/program", 7, "field \"program\" must be a string"},
      {"/warnings", json::parse("[1]"), "field \"warnings\" must be an array of strings"},
      {"/bugs/0/hits", 0, "field \"bugs[0].hits\" must be a whole number >= 1"},
      {"/bugs/0/kind", 3, "field \"bugs[0].kind\" must be a string"},
      {"/bugs/0/location/line", "x", "field \"bugs[0].location.line\""},
      {"/bugs/0/location", nullptr, "field \"bugs[0].location\" must be an object"},
      {"/cut_executions", -1, "field \"cut_executions\""},
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
}

}  // namespace
