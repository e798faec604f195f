#pragma once
// What the bounded-search tests compare against, written without the strategies' code:
// every interleaving of n threads of k steps with its preemption and delay counts, the
// closed count of executions with c preemptions, and a decorator that measures the
// preemptions and delays of whatever a strategy runs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/strategy.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"
#include "test_util.hpp"

namespace weft::test {

// One execution of a model program, as the tests compare them.
struct Measured {
  std::string schedule;  // schedule_text
  std::uint64_t preemptions = 0;
  std::uint64_t delays = 0;
  bool hit = false;
};

// Round-robin over thread ids as Emmi et al. describe it: the scheduler looks at the
// threads in the order current, current+1, ... (wrapping around), starting after the
// current thread if it cannot continue (at thread 0 before the first step), and each
// enabled thread it passes over is one delay.
inline std::uint64_t round_robin_delays(const SchedulingPoint& p, ThreadId chosen) {
  const std::size_t n = p.thread_count;
  std::size_t at = p.current == kNoThread ? 0 : (p.current + (p.current_enabled ? 0 : 1)) % n;
  std::uint64_t delays = 0;
  for (; at != chosen; at = (at + 1) % n)
    if (p.is_enabled(static_cast<ThreadId>(at))) ++delays;
  return delays;
}

// Passes every call to `inner` and measures what it chose.
class Meter final : public Strategy {
 public:
  explicit Meter(Strategy& inner) : inner_(inner) {}
  bool next_execution() override {
    preemptions_ = delays_ = 0;
    return inner_.next_execution();
  }
  ThreadId choose(const SchedulingPoint& p) override {
    const ThreadId t = inner_.choose(p);
    if (p.current_enabled && t != p.current) ++preemptions_;
    delays_ += round_robin_delays(p, t);
    return t;
  }
  std::size_t choose_value(std::size_t n) override { return inner_.choose_value(n); }
  void execution_done(const Trace& trace) override { inner_.execution_done(trace); }
  Coverage coverage() const override { return inner_.coverage(); }
  std::uint64_t preemptions() const { return preemptions_; }
  std::uint64_t delays() const { return delays_; }

 private:
  Strategy& inner_;
  std::uint64_t preemptions_ = 0, delays_ = 0;
};

// Every execution `s` runs on `p` (at most `max`, 0: until exhausted), in order.
inline std::vector<Measured> measure(Strategy& s, const model::Program& p,
                                     std::uint64_t max = 0) {
  std::vector<Measured> out;
  Meter meter(s);
  model::Executor ex(p);
  while ((max == 0 || out.size() < max) && meter.next_execution()) {
    const model::ExecutionResult r = ex.run(meter);
    std::uint64_t flagged = 0;
    for (const Event& e : ex.events()) flagged += (e.flags & kPreemption) != 0;
    if (flagged != meter.preemptions()) ADD_FAILURE() << "the executor and the meter disagree";
    out.push_back({schedule_text(ex), meter.preemptions(), meter.delays(), r.hit});
  }
  return out;
}

// Every interleaving of n threads of k steps each (no blocking), in lexicographic order,
// as schedule_text spells it, with its preemptions (a switch away from a thread with
// steps left) and delays (round_robin_delays over the threads with steps left).
inline std::vector<Measured> interleavings(std::size_t n, std::size_t k) {
  std::vector<Measured> out;
  std::vector<std::size_t> left(n, k);
  Measured m;
  std::function<void(ThreadId)> step = [&](ThreadId current) {
    if (m.schedule.size() == n * k) {
      out.push_back(m);
      return;
    }
    std::vector<ThreadId> enabled;
    for (ThreadId t = 0; t < n; ++t)
      if (left[t] != 0) enabled.push_back(t);
    SchedulingPoint p;
    p.current = current;
    p.current_enabled = current != kNoThread && left[current] != 0;
    p.enabled = enabled;
    p.thread_count = n;
    for (ThreadId t : enabled) {
      const Measured before = m;
      m.schedule += std::to_string(t);
      m.preemptions += p.current_enabled && t != current;
      m.delays += round_robin_delays(p, t);
      --left[t];
      step(t);
      ++left[t];
      m = before;
    }
  };
  step(kNoThread);
  return out;
}

inline std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  std::uint64_t c = 1;
  for (std::uint64_t j = 1; j <= k; ++j) c = c * (n - k + j) / j;
  return c;
}

inline std::uint64_t factorial(std::uint64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// Orders of r[i] runs of thread i, no two runs of one thread adjacent (Smirnov words), by
// inclusion-exclusion: sum over 1 <= j_i <= r_i of
//   prod (-1)^(r_i - j_i) C(r_i - 1, j_i - 1)  *  (j_1 + ... + j_n)! / (j_1! ... j_n!).
inline std::int64_t run_orders(const std::vector<std::uint64_t>& r) {
  std::int64_t total = 0;
  std::vector<std::uint64_t> j(r.size(), 1);
  for (;;) {
    std::int64_t term = 1;
    std::uint64_t sum = 0, multinomial = 1;
    for (std::size_t i = 0; i < r.size(); ++i) {
      term *= ((r[i] - j[i]) % 2 ? -1 : 1) * static_cast<std::int64_t>(binomial(r[i] - 1, j[i] - 1));
      sum += j[i];
      multinomial *= binomial(sum, j[i]);
    }
    total += term * static_cast<std::int64_t>(multinomial);
    std::size_t i = 0;
    while (i < r.size() && ++j[i] > r[i]) j[i++] = 1;
    if (i == r.size()) return total;
  }
}

// Executions of n non-blocking threads of k steps with exactly c preemptions. Each thread
// ends once, and the switch after its end is free: n - 1 free switches, so an execution
// with c preemptions is n + c runs. Thread i's k steps form r_i >= 1 runs in
// C(k-1, r_i-1) ways, and the runs are ordered with no two of one thread adjacent.
inline std::uint64_t executions_with_preemptions(std::uint64_t n, std::uint64_t k,
                                                 std::uint64_t c) {
  std::int64_t total = 0;
  std::vector<std::uint64_t> r(n, 1);
  for (;;) {
    std::uint64_t runs = 0, splits = 1;
    for (std::uint64_t ri : r) {
      runs += ri;
      splits *= binomial(k - 1, ri - 1);
    }
    if (runs == n + c) total += static_cast<std::int64_t>(splits) * run_orders(r);
    std::size_t i = 0;
    while (i < n && ++r[i] > k) r[i++] = 1;
    if (i == n) return static_cast<std::uint64_t>(total);
  }
}

// ICB's Theorem 1 with b = 1 (a thread's only blocking step is its end): at most
// C(nk, c) (n + c)! executions with c preemptions.
inline std::uint64_t theorem1_bound(std::uint64_t n, std::uint64_t k, std::uint64_t c) {
  return binomial(n * k, c) * factorial(n + c);
}

}  // namespace weft::test

namespace weft::test {

// A program whose bug needs exactly `preemptions` preemptions and `delays` delays at the
// least (the tests check both against dfs).
struct SeededBug {
  std::string name;
  model::Program program;
  std::uint64_t preemptions;
  std::uint64_t delays;
};

inline std::vector<SeededBug> seeded_bugs() {
  using model::ObjectId;
  using model::Program;
  using model::State;
  using model::ThreadIndex;
  std::vector<SeededBug> bugs;
  {
    // A sees y == 2 only if both of B's writes come before A's read: B B A A (B first: no
    // preemption, one delay) or A B B A (one preemption, one delay).
    Program p;
    const ObjectId x = p.variable("x"), y = p.variable("y");
    p.thread("A").write(x, 1).read(y, 0).check(
        [](const State& s, ThreadIndex self) { return s.reg(self, 0) != 2; }, "A saw y == 2");
    p.thread("B").write(y, 1).write(y, 2);
    bugs.push_back({"B runs first", std::move(p), 0, 1});
  }
  {
    // Only the order C A B: C first skips A and B (two delays), the rest is round-robin.
    Program p;
    const ObjectId z = p.variable("z"), w = p.variable("w");
    p.thread("A").read(z, 0).check(
        [w](const State& s, ThreadIndex self) { return !(s.reg(self, 0) == 1 && s[w] == 0); },
        "A saw C's write but not B's");
    p.thread("B").write(w, 1);
    p.thread("C").write(z, 1);
    bugs.push_back({"C runs first, then A", std::move(p), 0, 2});
  }
  {
    // A lost update: both reads before both writes; A r, B r (a preemption), B w, A w.
    Program p;
    const ObjectId x = p.variable("x");
    for (const char* name : {"A", "B"})
      p.thread(name).read(x, 0).access(OpKind::Write, x, [x](State& s, ThreadIndex self) {
        s[x] = s.reg(self, 0) + 1;
      });
    p.expect_final([x](const State& s) { return s[x] == 2; }, "x == 2");
    bugs.push_back({"lost update", std::move(p), 1, 1});
  }
  {
    // B sees both of A's writes in turn: only a1 b1 a2 b2, which switches twice while the
    // running thread could go on.
    Program p;
    const ObjectId x = p.variable("x");
    p.thread("A").write(x, 1).write(x, 0);
    p.thread("B").read(x, 0).read(x, 1).check(
        [](const State& s, ThreadIndex self) {
          return !(s.reg(self, 0) == 1 && s.reg(self, 1) == 0);
        },
        "B saw x go 1 then 0");
    bugs.push_back({"B sees A's two writes", std::move(p), 2, 2});
  }
  // The POS running example: only B1 A1 B2 B3 A2 A3 B4 B5 B6 A4. Preemptions before A1,
  // B2 and B4 (A2 is free: B waits for A3's signal); delays at B1, A1, B2 and B4.
  bugs.push_back({"POS running example", model::pos_running_example(), 3, 4});
  return bugs;
}

}  // namespace weft::test
