#pragma once
// Hand-made RunRecords whose pcs are real code in this binary (sites.cpp).
#include "core/run_record.hpp"
#include "sites.hpp"

namespace weft_test {

inline weft::Event event(weft::ThreadId thread, weft::OpKind kind, std::uintptr_t object,
                         std::uintptr_t pc, std::uint8_t flags = 0, std::uint16_t size = 0,
                         std::uint32_t aux = 0) {
  weft::Event e;
  e.thread = thread;
  e.flags = flags;
  e.op = weft::make_op(kind, object, pc, size, aux);
  return e;
}

// A lost update: T1 and T2 both read and write a counter; T2 preempts T1 in between.
inline weft::RunRecord lost_update_run() {
  using weft::OpKind;
  weft::RunRecord run;
  run.strategy = "pct";
  run.seed = 42;
  run.executions = 17;
  run.elapsed_s = 0.25;
  run.instrumented = true;
  run.coverage.summary = "17 samples, no guarantee";
  run.replay_hint = "weft replay ./counter_test --schedule=<schedule>";
  weft::BugRecord bug;
  bug.kind = weft::BugKind::kAssertion;
  bug.message = "counter == 2";
  bug.thread = 0;
  bug.execution = 17;
  bug.schedule = "weft1.00000000000000aa.pct.42.0,1,2,1,0.1234";
  const std::uintptr_t counter = 0x5000;
  const std::uintptr_t a = named_site(0).pc, b = other_site().pc;
  bug.events = {
      event(0, OpKind::ThreadCreate, 0, a, 0, 0, 1),
      event(0, OpKind::ThreadCreate, 0, a, 0, 0, 2),
      event(1, OpKind::Read, counter, b, weft::kPreemption, 4),
      event(2, OpKind::Read, counter, b, weft::kPreemption, 4),
      event(2, OpKind::Write, counter, b, 0, 4),
      event(1, OpKind::Write, counter, b, 0, 4),
      event(0, OpKind::ThreadJoin, 0, a, 0, 0, 1),
  };
  bug.step = bug.events.size();
  Site s = named_site(0);
  bug.pc = s.pc;
  run.bugs.push_back(bug);
  return run;
}

}  // namespace weft_test
