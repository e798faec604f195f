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
#include "support/temp_dir.hpp"

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

class Hostile : public weft::test::TempDirTest {
 protected:
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  // `args` of weft refused: exit 2, one line, saying `says`.
  void refused(const std::string& args, const std::string& says) {
    const Output o = sh("cd " + dir_.string() + " && " + weft() + " " + args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(says), std::string::npos) << args << "\n" << o.out;
    EXPECT_EQ(lines(o.out), 1u) << "one line: " << args << "\n" << o.out;
  }
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
  // What follows the first line is read only as far as its first character that is not
  // blank: 6 MB of zero bytes there are a second line, refused without reading them all.
  const std::string found = at("found.weft-schedule");
  sh(weft() + " run -q -s dfs -n 0 --schedule-out " + found + program);
  sh("head -c 6000000 /dev/zero >> " + found);
  refused("replay " + found + program, "schedule file '" + found +
                                           "' has more than one line (line 2 is not blank)");
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

// WEFT_JOBS, WEFT_SHARDS and the engines' shard counts are read as the options are: digits
// only (no space, sign or hex), within the range the error names; a shard count at most
// what weft merge takes, and a shard's workers too (a count times --jobs once overflowed
// 32 bits: 2^24 shards of 256 workers made 0 parts).
TEST_F(Hostile, WeftJobsAndShardCountsAreReadAsStrictlyAsTheOptions) {
  const std::string program = " -q -s random -n 3 -- " + kBin + "/cli_locked";
  auto refused_with = [&](const std::string& env, const std::string& args, const std::string& says) {
    const Output o = sh(weft::test::kNoSharding + "-u WEFT_JOBS " + env + " " + weft() + " run " +
                        args + program);
    EXPECT_EQ(o.status, 2) << env << " " << args << "\n" << o.out;
    EXPECT_NE(o.out.find(says), std::string::npos) << env << " " << args << "\n" << o.out;
    EXPECT_EQ(lines(o.out), 1u) << "one line: " << o.out;
  };
  const std::string workers = "' is not valid: give a whole number of workers from 1 to 256";
  // Set but empty is refused too, as --jobs '' is (it was taken for unset).
  for (const std::string v : {"", " 5", "+5", "5 ", "0x5", "-1", "05x", "1e2", "99999999999999999999999"})
    refused_with("WEFT_JOBS='" + v + "'", "", "weft: WEFT_JOBS='" + v + workers);
  const std::string shards = "is not valid: give a whole number of shards from 1 to 1048576";
  refused_with("JOB_COMPLETION_INDEX=0 WEFT_SHARDS=' 2'", "", "WEFT_SHARDS=' 2' " + shards);
  refused_with("JOB_COMPLETION_INDEX=0 WEFT_SHARDS=+2", "", "WEFT_SHARDS='+2' " + shards);
  refused_with("WEFT_SHARDS=", "", "WEFT_SHARDS='' " + shards);
  refused_with("", "--jobs ''", "--jobs: '' is not valid: give a whole number of workers");
  refused_with("JOB_COMPLETION_INDEX=0", "--shards +2", "--shards: '+2' " + shards);
  refused_with("JOB_COMPLETION_INDEX=0", "--shards 1048577", "--shards: '1048577' " + shards);
  refused_with("", "--shard 0/4294967295", "--shard 0/4294967295: the count " + shards);
  refused_with("", "--shard 0/1048577", "--shard 0/1048577: the count " + shards);
  refused_with("", "--shard ' 0/2'", "--shard expects I/N");
  refused_with("", "--shard +0/2", "--shard expects I/N");
  refused_with("TEST_SHARD_INDEX=0 TEST_TOTAL_SHARDS=2000000", "",
               "cannot shard by TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel): TEST_TOTAL_SHARDS='2000000' " + shards);
  refused_with("GTEST_SHARD_INDEX=0 GTEST_TOTAL_SHARDS=' 2'", "",
               "GTEST_TOTAL_SHARDS=' 2' " + shards);
  refused_with("", "--shard 0/16777216 --jobs 256", "--shard 0/16777216: the count " + shards);
  refused_with("", "--shard 0/1048576 --jobs 2",
               "--jobs 2 with 1048576 shards splits the search into 2097152 parts, more than "
               "1048576: give at most --jobs 1, or fewer shards");
  refused_with("WEFT_JOBS=256", "--shard 5/8192",
               "WEFT_JOBS=256 with 8192 shards splits the search into 2097152 parts");
  // The default, the cores, is cut down to fit instead.
  const Output o = sh(weft::test::kNoSharding + "-u WEFT_JOBS " + weft() +
                      " run --shard 3/1048576 --json -" + program);
  EXPECT_EQ(o.status, 0) << o.out;
  const json j = json::parse(o.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out;
  EXPECT_EQ(j["jobs"], 1) << o.out;
  EXPECT_EQ(j["shard"]["count"], 1048576) << o.out;
}

// The file of options weft run hands the program (core/run_config.def) is read by the
// rules weft run reads its options by: a bad line is the run's error, naming the line and
// what is accepted, never a default or a rounded number.
TEST_F(Hostile, TheForkServerReadsItsOptionsFileStrictly) {
  auto serve = [&](const std::string& lines, const std::string& env = "") {
    fs::remove(at("result.json"));
    {
      std::ofstream out(at("run-options"));
      out << "executions=1\n" << lines;
    }
    sh("env WEFT_RUN_OPTIONS=" + at("run-options") + " " + env + " LD_PRELOAD=" +
       kBin + "/../lib/libweft.so " + kBin + "/cli_locked");
    std::ifstream in(at("result.json"));
    return json::parse(in, nullptr, false);
  };
  const struct {
    std::string lines, env, error;
  } bad[] = {
      {"seed=-1\n", "", "line 2: seed='-1' is not valid: give a whole number from 0 to 18446744073709551615"},
      {"time_s=nan\n", "", "line 2: time_s='nan' is not valid: give seconds, a number from 0 to"},
      {"hang_timeout_s=inf\n", "", "line 2: hang_timeout_s='inf' is not valid: give seconds"},
      {"steps=1e5\n", "", "line 2: steps='1e5' is not valid: give a whole number from 1 to 50000000"},
      {"executions=-1\n", "", "line 2: executions is given twice"},
      {"expect_exit=300\n", "", "line 2: expect_exit='300' is not valid: give an exit status from 0 to 255"},
      {"", "WEFT_FIBERS=banana", "WEFT_FIBERS='banana' is not valid: give 0"},
      {"run_shard= 0/2\n", "", "line 2: run_shard=' 0/2' is not valid: give I/N"},
      {"run_shard=0/4294967295\n", "", "line 2: run_shard='0/4294967295' is not valid: give I/N"},
      {"jobs_workers=+2\n", "", "line 2: jobs_workers='+2' is not valid: give a whole number of workers"},
      {"keep_going=1\n", "", "line 2: keep_going='1' is not valid: give yes or no"},
      {"races=sometimes\n", "", "line 2: races='sometimes' is not valid: give off, report or fail"},
      {"stratgey=pb\n", "", "line 2: 'stratgey' is not an option this weft takes"},
      {"replay_command=a\\qb\n", "", "line 2: not field=value"},
      {"seed\n", "", "line 2: not field=value"},
  };
  for (const auto& b : bad) {
    const json j = serve(b.lines, b.env);
    ASSERT_FALSE(j.is_discarded()) << b.lines;
    EXPECT_NE(j.value("error", "").find(b.error), std::string::npos) << b.lines << "\n" << j.dump();
    EXPECT_EQ(j["executions"], 0) << b.lines;
  }
  const json j = serve("seed=9007199254740993\nreplay_command=weft replay a\\\\b\\nc\n");
  ASSERT_FALSE(j.is_discarded());
  EXPECT_FALSE(j.contains("error")) << j.dump();
  EXPECT_EQ(j["seed"].get<std::uint64_t>(), 9007199254740993ull);
  EXPECT_EQ(j["executions"], 1) << j.dump();
}

// The first bytes of an ELF file: its header (64 bytes, 52 for a 32-bit one), claiming
// `phnum` program headers right after it, in the byte order `data` says (1 little, 2 big).
std::string elf_header(unsigned char elf_class, unsigned char data, std::uint16_t type,
                       std::uint16_t machine, std::uint16_t phnum) {
  std::string h(64, '\0');
  h.replace(0, 7, std::string{'\x7f', 'E', 'L', 'F', static_cast<char>(elf_class),
                              static_cast<char>(data), 1});
  auto put16 = [&](std::size_t at, std::uint16_t v) {
    h[at + (data == 2 ? 1 : 0)] = static_cast<char>(v & 0xff);
    h[at + (data == 2 ? 0 : 1)] = static_cast<char>(v >> 8);
  };
  put16(16, type);
  put16(18, machine);
  if (elf_class == 2) {
    h[data == 2 ? 39 : 32] = 64;  // e_phoff
    put16(52, 64);                // e_ehsize
    put16(54, 56);                // e_phentsize
    put16(56, phnum);
  } else {
    h[data == 2 ? 31 : 28] = 52;
    put16(40, 52);
    put16(42, 32);
    put16(44, phnum);
    h.resize(52);
  }
  return h;
}

// A program weft cannot run is named with what is wrong with it, exit 2, before anything
// runs: not handed to /bin/sh (execvp's fallback), whose exit status 2 was reported as the
// program's bug.
TEST_F(Hostile, AProgramWeftCannotRunIsNamedWithWhatIsWrong) {
#if defined(__x86_64__)
  const std::string ours = "; weft runs 64-bit x86-64 programs";
  const std::uint16_t ours_machine = 62, foreign_machine = 183;  // EM_X86_64, EM_AARCH64
  const std::string foreign = "AArch64";
#else
  GTEST_SKIP() << "the foreign machines below are chosen for an x86-64 weft";
#endif
  auto program = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(at(name), std::ios::binary) << bytes;
    fs::permissions(at(name), fs::perms::owner_all);
    return at(name);
  };
  const std::string i386 = program("i386", elf_header(1, 1, 2, 3, 1) + std::string(4096, '\0'));
  refused("run -- " + i386, "weft: " + i386 + " is a 32-bit ELF (i386)" + ours);
  refused("run " + i386, "weft: " + i386 + " is a 32-bit ELF (i386)" + ours);
  const std::string arm = program("arm64", elf_header(2, 1, 2, foreign_machine, 1) + std::string(4096, '\0'));
  refused("run -- " + arm, "weft: " + arm + " is an ELF for " + foreign + ours);
  const std::string big = program("big", elf_header(2, 2, 2, 21, 1) + std::string(4096, '\0'));
  refused("run -- " + big, "weft: " + big + " is a big-endian ELF (PowerPC64)" + ours);
  const std::string object = program("object.o", elf_header(2, 1, 1, ours_machine, 0));
  refused("run -- " + object, "weft: " + object + " is an object file (ELF type 1), not a program");
  // Truncated: its program headers, or its segments, past the end of the file.
  const std::string headers = program("headers", elf_header(2, 1, 2, ours_machine, 13));
  refused("run -- " + headers, "weft: " + headers +
                                   " is a truncated ELF: its program headers end at byte 792 but "
                                   "the file has 64 bytes");
  std::ifstream whole(kBin + "/cli_locked", std::ios::binary);
  std::string start(3000, '\0');
  whole.read(start.data(), 3000);
  const std::string cut = program("cut", start);
  refused("run -- " + cut, "weft: " + cut + " is a truncated ELF: its segments end at byte ");
  refused("replay x -- " + cut, "is a truncated ELF");
  // Neither a directory nor a script is a program.
  fs::create_directories(at("dir"));
  refused("run -- " + at("dir"), "weft: " + at("dir") + " is a directory, not a program");
  refused("run " + at("dir"), "weft: " + at("dir") + " is a directory, not a program");
  // A name without '/' is looked for in PATH only (names that no command has).
  fs::create_directories(at("weft_a_directory"));
  refused("run weft_a_directory",
          "weft: program 'weft_a_directory' not found in PATH (./weft_a_directory is a directory)");
  refused("run object.o", "weft: program 'object.o' not found in PATH (give its path: ./object.o)");
  const std::string script = program("script", "#!/bin/sh\necho hi\n");
  refused("run -- " + script, "weft: " + script + " is a script (#!/bin/sh), not an ELF program");
}

// weft's options stop at the program's path: what follows it is the program's, with or
// without '--' (weft run ./prog -n 5 --seed 3 took -n 5 --seed 3 for weft's).
TEST_F(Hostile, OptionsAfterTheProgramAreTheProgramsOwn) {
  const std::string program = kBin + "/cli_locked";
  for (const std::string between : {" ", " -- "}) {
    const Output o = sh(weft() + " run -q -s dfs -n 0 --json -" + between + program +
                        " -n 5 --seed 3 -s pb -- x");
    EXPECT_EQ(o.status, 0) << between << "\n" << o.out;
    const json j = json::parse(o.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << o.out;
    EXPECT_EQ(j["args"], json::parse(R"(["-n", "5", "--seed", "3", "-s", "pb", "--", "x"])")) << o.out;
    EXPECT_EQ(j["strategy"], "dfs") << o.out;
    EXPECT_EQ(j["seed"], 0) << o.out;
    EXPECT_GT(j["executions"].get<int>(), 5) << o.out;
  }
  // A replay's program comes after its schedule file; options may stand between them.
  const std::string found = at("found.weft-schedule");
  sh(weft() + " run -q -s dfs -n 0 --schedule-out " + found + " -- " + kBin + "/cli_deadlock");
  const Output o = sh(weft() + " replay " + found + " --json - " + kBin +
                          "/cli_deadlock -q --full-trace",
                      "2>/dev/null");
  EXPECT_EQ(o.status, 1) << o.out;
  const json j = json::parse(o.out.substr(o.out.find("\n{\n") + 1), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << o.out;
  EXPECT_EQ(j["args"], json::parse(R"(["-q", "--full-trace"])")) << o.out;
}

// A misspelt option, an unknown command: named, with what is meant or accepted.
TEST_F(Hostile, UnknownOptionsAndCommandsAreNamed) {
  const std::string program = " -- " + kBin + "/cli_locked";
  refused("run --strategey pb" + program,
          "weft: unknown option --strategey (did you mean --strategy?)");
  refused("run --strategey=pb " + kBin + "/cli_locked", "weft: unknown option --strategey");
  refused("run -Z" + program, "weft: unknown option -Z");
  refused("replay x --gbd" + program, "weft: unknown option --gbd (did you mean --gdb?)");
  refused("merge a.json --jsn b.json", "weft: unknown option --jsn (did you mean --json?)");
  refused("--seed 3 run" + program, "weft: unknown option --seed");
  refused("rn" + program, "weft: unknown command 'rn' (did you mean run?); commands: run, replay, "
                          "minimize, merge, strategies");
  refused("frobnicate", "weft: unknown command 'frobnicate'; commands: run, replay, minimize, "
                        "merge, strategies");
  refused("", "weft: no command given; commands: run, replay, minimize, merge, strategies");
  refused("strategies extra", "weft: unexpected argument 'extra'");
  // What is missing, in weft's words ("schedule is required", "--json: 1 required TEXT
  // missing" were CLI11's).
  refused("replay", "weft: no schedule given; usage: weft replay FILE|SCHEDULE [OPTIONS] [--] "
                    "PROGRAM [ARGS...]");
  refused("minimize", "weft: no schedule given; usage: weft minimize FILE|SCHEDULE");
  refused("merge", "weft: no result files given; usage: weft merge [OPTIONS] RESULT...");
  refused("merge a.json --json", "weft: --json needs a value (FILE); see 'weft merge --help'");
  refused("run -s", "weft: --strategy needs a value");
}

// A schedule file is one line: a line break that travelled through Windows (CRLF) and
// blank lines after it are accepted; a second schedule, or a character that is not text
// in the line, are refused naming the file and the line.
TEST_F(Hostile, AScheduleFileIsOneLineOfText) {
  const std::string program = " -- " + kBin + "/cli_deadlock";
  const std::string found = at("found.weft-schedule");
  sh(weft() + " run -q -s dfs -n 0 --schedule-out " + found + program);
  std::ifstream in(found);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  for (const std::string ending : {"\r\n", "\n\n  \r\n\t\n", "\r\n\r\n", ""}) {
    std::ofstream(at("ok"), std::ios::binary) << line << ending;
    const Output o = sh(weft() + " replay " + at("ok") + program);
    EXPECT_EQ(o.status, 1) << o.out;
    EXPECT_TRUE(o.has("bug: deadlock")) << o.out;
  }
  std::ofstream(at("two"), std::ios::binary) << line << "\r\n\r\n" << line << "\r\n";
  refused("replay two" + program,
          "weft: schedule file 'two' has more than one line (line 3 is not blank): a schedule "
          "file holds one schedule");
  std::ofstream(at("cr"), std::ios::binary) << line.substr(0, 10) << "\r" << line.substr(10) << "\n";
  refused("replay cr" + program,
          "weft: schedule file 'cr' has a control character (byte 0x0d) at column 11 of line 1");
  refused("minimize cr" + program, "schedule file 'cr' has a control character (byte 0x0d)");
}

// A WEFT_* variable weft reads from the user with a fixed set of values refuses any other,
// naming the variable and what it accepts.
TEST_F(Hostile, AVariableWithAFixedSetOfValuesRefusesOthers) {
  const std::string program = " -- " + kBin + "/cli_locked";
  const Output o = sh("WEFT_FIBERS=banana " + weft() + " run -q" + program);
  EXPECT_EQ(o.status, 2) << o.out;
  EXPECT_TRUE(o.has("weft: WEFT_FIBERS='banana' is not valid: give 0 (no fibers: the kernel "
                    "switches threads), 1 (fibers, the default) or arch_prctl (fibers that set "
                    "their thread pointer by system call), or unset it"))
      << o.out;
  EXPECT_EQ(lines(o.out), 1u) << o.out;
  for (const char* fine : {"0", "1", "arch_prctl", ""})
    EXPECT_EQ(sh(std::string("WEFT_FIBERS=") + fine + " " + weft() + " run -q" + program).status, 0)
        << fine;
}

}  // namespace
