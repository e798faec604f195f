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

}  // namespace
