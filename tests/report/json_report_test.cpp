#include "report/json_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "records.hpp"

namespace weft {
namespace {

using nlohmann::json;
using weft_test::Site;

void expect_location_object(const json& loc) {
  ASSERT_TRUE(loc.is_object()) << loc;
  EXPECT_TRUE(loc.at("function").is_string());
  EXPECT_TRUE(loc.at("file").is_string());
  EXPECT_TRUE(loc.at("line").is_number_integer());
}

TEST(JsonReport, EveryContractFieldWithItsType) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  run.coverage.kind = CoverageKind::kNone;
  run.coverage.executions = 17;
  json j = json::parse(format_json(run, sym, "./counter_test", {"--gtest_filter=x", "-v"}));

  EXPECT_EQ(j.at("version"), 2);
  EXPECT_EQ(j.at("program"), "./counter_test");
  EXPECT_EQ(j.at("args"), json({"--gtest_filter=x", "-v"}));
  EXPECT_EQ(j.at("strategy"), "pct");
  EXPECT_TRUE(j.at("seed").is_number_unsigned());
  EXPECT_EQ(j.at("seed"), 42);
  EXPECT_EQ(j.at("executions"), 17);
  EXPECT_TRUE(j.at("elapsed_s").is_number_float());
  EXPECT_DOUBLE_EQ(j.at("elapsed_s").get<double>(), 0.25);
  EXPECT_EQ(j.at("complete"), false);
  EXPECT_EQ(j.at("instrumented"), true);
  const json& cov = j.at("coverage");
  EXPECT_EQ(cov.at("kind"), "none");
  EXPECT_EQ(cov.at("complete"), false);
  EXPECT_TRUE(cov.at("bound").is_number_integer());
  EXPECT_EQ(cov.at("bound"), -1);
  EXPECT_EQ(cov.at("executions"), 17);
  EXPECT_EQ(cov.at("summary"), "17 samples, no guarantee");
  EXPECT_FALSE(j.contains("error"));

  ASSERT_TRUE(j.at("bugs").is_array());
  ASSERT_EQ(j.at("bugs").size(), 1u);
  const json& bug = j.at("bugs")[0];
  EXPECT_EQ(bug.at("kind"), "assertion");
  EXPECT_EQ(bug.at("message"), "counter == 2");
  EXPECT_EQ(bug.at("thread"), 0);
  EXPECT_EQ(bug.at("execution"), 17);
  EXPECT_EQ(bug.at("preemptions"), 2);
  EXPECT_EQ(bug.at("steps"), 7);
  EXPECT_EQ(bug.at("schedule"), run.bugs[0].schedule);
  expect_location_object(bug.at("location"));
  Site s = weft_test::named_site(0);
  EXPECT_EQ(bug.at("location").at("function"), "weft_test::named_site(int)");
  EXPECT_EQ(bug.at("location").at("line"), s.line);
  EXPECT_TRUE(bug.at("blocked").is_array());
  EXPECT_TRUE(bug.at("blocked").empty());

  const json& trace = bug.at("trace");
  ASSERT_TRUE(trace.is_array());
  ASSERT_EQ(trace.size(), 7u);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const json& step = trace[i];
    EXPECT_EQ(step.at("step"), i + 1);
    EXPECT_TRUE(step.at("thread").is_number_unsigned());
    EXPECT_TRUE(step.at("op").is_string());
    EXPECT_TRUE(step.at("object").is_string());
    EXPECT_TRUE(step.at("size").is_number_unsigned());
    EXPECT_TRUE(step.at("preemption").is_boolean());
    EXPECT_TRUE(step.at("location").is_string());
    EXPECT_TRUE(step.at("function").is_string());
  }
  Site b = weft_test::other_site();
  const json& read = trace[2];
  EXPECT_EQ(read.at("thread"), 1);
  EXPECT_EQ(read.at("op"), "read");
  EXPECT_EQ(read.at("object"), "0x5000");
  EXPECT_EQ(read.at("size"), 4);
  EXPECT_EQ(read.at("preemption"), true);
  std::string location = read.at("location");
  EXPECT_NE(location.find("sites.cpp:" + std::to_string(b.line)), std::string::npos) << location;
  EXPECT_EQ(location.front(), '/');  // the full path, unlike the text report
  EXPECT_EQ(read.at("function"), "weft_test::other_site()");
  EXPECT_EQ(trace[0].at("op"), "thread-create");
  EXPECT_EQ(trace[0].at("target"), 1);
  EXPECT_EQ(trace[0].at("object"), "");
  EXPECT_EQ(trace[0].at("object_name"), "T1");
  EXPECT_EQ(read.at("object_name"), "0x5000");  // neither a global nor a known heap block
  EXPECT_FALSE(read.contains("target"));
  EXPECT_EQ(bug.at("thread_names"), json::array());
  EXPECT_EQ(bug.at("heap_objects"), json::array());
}

TEST(JsonReport, ThreadNotesAndHeapObjects) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& record = run.bugs[0];
  record.thread_names = {"", "adder"};
  Allocation block;
  block.address = 0x4ff0;
  block.size = 32;
  block.step = 1;
  block.thread = 0;
  block.pc = weft_test::named_site(1).pc;
  record.allocations = {block};
  json j = json::parse(format_json(run, sym));
  const json& bug = j.at("bugs")[0];
  EXPECT_EQ(bug.at("thread_names"), json::parse(R"([{"thread": 1, "name": "adder"}])"));
  ASSERT_EQ(bug.at("heap_objects").size(), 1u);
  const json& heap = bug.at("heap_objects")[0];
  EXPECT_EQ(heap.at("name"), "heap#1");
  EXPECT_EQ(heap.at("address"), "0x4ff0");
  EXPECT_EQ(heap.at("size"), 32);
  EXPECT_EQ(heap.at("thread"), 0);
  EXPECT_EQ(heap.at("step"), 1);
  expect_location_object(heap.at("location"));
  EXPECT_EQ(heap.at("location").at("function"), "weft_test::named_site(int)");
  EXPECT_EQ(heap.at("location").at("line"), weft_test::named_site(1).line);
  EXPECT_EQ(bug.at("trace")[2].at("object"), "0x5000");
  EXPECT_EQ(bug.at("trace")[2].at("object_name"), "heap#1+16");
}

TEST(JsonReport, DeadlockErrorAndUnknowns) {
  Symbolizer sym;
  RunRecord run;
  run.strategy = "dfs";
  run.error = "budget too small";
  run.coverage.kind = CoverageKind::kPreemptionBound;
  run.coverage.bound = 2;
  BugRecord bug;
  bug.kind = BugKind::kDeadlock;
  bug.thread = kNoThread;
  Site a = weft_test::named_site(0);
  bug.events = {weft_test::event(0, OpKind::MutexLock, 0xa000, 0xdeadbeef)};
  bug.blocked = {{0, make_op(OpKind::MutexLock, 0xb000, a.pc)}};
  run.bugs.push_back(bug);
  json j = json::parse(format_json(run, sym));
  EXPECT_EQ(j.at("program"), "");
  EXPECT_EQ(j.at("args"), json::array());
  EXPECT_EQ(j.at("error"), "budget too small");
  EXPECT_EQ(j.at("coverage").at("bound"), 2);
  const json& b = j.at("bugs")[0];
  EXPECT_EQ(b.at("kind"), "deadlock");
  EXPECT_TRUE(b.at("thread").is_null());
  EXPECT_EQ(b.at("steps"), 1);
  EXPECT_EQ(b.at("location"), json({{"function", ""}, {"file", ""}, {"line", 0}}));
  ASSERT_EQ(b.at("blocked").size(), 1u);
  const json& blocked = b.at("blocked")[0];
  EXPECT_EQ(blocked.at("thread"), 0);
  EXPECT_EQ(blocked.at("op"), "mutex-lock");
  EXPECT_EQ(blocked.at("object"), "0xb000");
  EXPECT_EQ(blocked.at("object_name"), "0xb000");
  expect_location_object(blocked.at("location"));
  EXPECT_EQ(blocked.at("location").at("function"), "weft_test::named_site(int)");
  EXPECT_EQ(blocked.at("location").at("line"), a.line);
  const json& step = b.at("trace")[0];
  EXPECT_EQ(step.at("location"), "");
  EXPECT_EQ(step.at("function"), "");
}

TEST(JsonReport, OneLineAndInvalidUtf8) {
  Symbolizer sym;
  RunRecord run;
  run.strategy = "random";
  BugRecord bug;
  bug.kind = BugKind::kCrash;
  bug.message = "bad byte \xff here";
  run.bugs.push_back(bug);
  std::string text = format_json(run, sym, "", {}, -1);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  json j = json::parse(text);
  EXPECT_EQ(j.at("bugs")[0].at("kind"), "crash");
  EXPECT_TRUE(j.at("bugs")[0].at("message").is_string());
}

// The traces' steps are written apart and spliced into the document (a line each): the
// result is the same document, indented or on one line, with a trace in a trace (what a
// race leads to) and a message that looks like the splice's placeholder.
TEST(JsonReport, TracesAreSplicedIntoTheDocument) {
  Symbolizer sym;
  RunRecord run = weft_test::lost_update_run();
  BugRecord& race = run.bugs[0];
  race.message = "\x01steps:0";
  race.leads_to_searched = 4;
  race.leads_to.push_back(weft_test::lost_update_run().bugs[0]);
  race.leads_to.back().kind = BugKind::kAssertion;
  run.races.push_back(weft_test::lost_update_run().bugs[0]);
  const json indented = json::parse(format_json(run, sym, "", {}, 2));
  const std::string line = format_json(run, sym, "", {}, -1);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(json::parse(line), indented);
  EXPECT_EQ(indented.at("bugs")[0].at("message"), "\x01steps:0");
  for (const json* b : {&indented.at("bugs")[0], &indented.at("bugs")[0].at("leads_to"), &indented.at("races")[0]}) {
    ASSERT_EQ(b->at("trace").size(), run.bugs[0].events.size()) << *b;
    for (std::size_t i = 0; i < run.bugs[0].events.size(); ++i) {
      EXPECT_EQ(b->at("trace")[i].at("step"), i + 1);
      EXPECT_EQ(b->at("trace")[i].at("thread"), run.bugs[0].events[i].thread);
    }
  }
  // Indented, each step is a line of its own under its key's.
  const std::string text = format_json(run, sym, "", {}, 2);
  EXPECT_NE(text.find("      \"trace\": [\n        {\"step\":1,"), std::string::npos) << text.substr(0, 3000);
}

}  // namespace
}  // namespace weft
