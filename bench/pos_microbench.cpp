// The POS paper's micro-benchmark (Yuan, Yang, Gu, "Partial Order Aware Concurrency
// Sampling", CAV 2018, section 6.1, Tables 1 and 2), rerun on weft's strategies:
//
//   random programs of 4 threads x 4 events over 4 objects, accesses per object
//   {4,4,4,4} (uniform) or {2,2,6,6} (skewed); Table 2: half of the events are reads.
//   A strategy's coverage of a program is its minimum hit ratio over all partial orders
//   of the program (found by brute force); strategies are compared by the geometric
//   mean of coverage over the programs.
//
// Random walk's ratios are exact (dynamic programming over each partial order); pct:3,
// pos and pos* are sampled through the registry and the model program. The paper sampled
// 5*10^7 executions per algorithm; --samples sets ours (a minimum estimated from few hits
// is biased low: compare figures of the same run).
//
//   pos_microbench [--samples N] [--programs P] [--seed S] [--jobs J]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/rng.hpp"
#include "strategy/registry.hpp"
#include "support/micro_programs.hpp"
#include "support/model_program.hpp"

namespace {

using weft::model::micro::MicroProgram;
using weft::model::micro::PartialOrders;

struct Options {
  std::uint64_t samples = 1000000;
  std::size_t programs = 5;  // per access pattern
  std::uint64_t seed = 1;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

// One strategy's figures on one program.
struct Coverage {
  double min_ratio = 0;      // 0: some partial order never hit
  std::size_t covered = 0;   // partial orders hit at least once
};

struct Row {
  const char* pattern;
  MicroProgram program;
  std::unique_ptr<PartialOrders> orders;
  int max_preemptions = 0;
  int max_races = 0;
  Coverage random;                 // exact
  std::vector<Coverage> sampled;   // one per sampled strategy
};

Coverage sample(const char* spec, std::uint64_t seed, const PartialOrders& orders,
                std::uint64_t samples) {
  std::string error;
  auto strategy = weft::make_strategy(spec, seed, &error);
  if (!strategy) {
    std::fprintf(stderr, "pos_microbench: %s\n", error.c_str());
    std::exit(2);
  }
  const weft::model::Program program = orders.program().program();
  weft::model::Executor executor(program);
  std::vector<std::uint64_t> hits(orders.size(), 0);
  for (std::uint64_t i = 0; i < samples && strategy->next_execution(); ++i) {
    executor.run(*strategy);
    const std::size_t k = orders.index_of(executor.events());
    if (k == PartialOrders::npos) {
      std::fprintf(stderr, "pos_microbench: %s followed a partial order the enumeration "
                           "does not have\n", spec);
      std::exit(1);
    }
    ++hits[k];
  }
  Coverage c;
  std::uint64_t least = samples;
  for (std::uint64_t h : hits) {
    c.covered += h != 0;
    least = std::min(least, h);
  }
  c.min_ratio = double(least) / double(samples);
  return c;
}

std::string ratio_text(const Coverage& c, std::size_t orders) {
  char buf[48];
  if (c.min_ratio == 0)
    std::snprintf(buf, sizeof buf, "0(%zu/%zu)", c.covered, orders);
  else
    std::snprintf(buf, sizeof buf, "%.2e", c.min_ratio);
  return buf;
}

// Geometric mean; a 0 counts as 1/samples (less than any observed ratio), which makes the
// mean an upper bound: `bounded` says so.
double geomean(const std::vector<double>& v, std::uint64_t samples, bool* bounded) {
  double log_sum = 0;
  *bounded = false;
  for (double x : v) {
    if (x == 0) {
      x = 1.0 / double(samples);
      *bounded = true;
    }
    log_sum += std::log(x);
  }
  return std::exp(log_sum / double(v.size()));
}

void run_table(const char* title, std::size_t reads, const std::vector<const char*>& specs,
               const Options& opt, std::uint64_t seed) {
  static const int kUniform[] = {4, 4, 4, 4};
  static const int kSkewed[] = {2, 2, 6, 6};
  weft::Rng rng(seed);
  std::vector<Row> rows;
  for (const char* pattern : {"uniform", "skewed"})
    for (std::size_t i = 0; i < opt.programs; ++i) {
      Row r;
      r.pattern = pattern;
      r.program = weft::model::micro::random_program(
          rng, 4, 4, std::strcmp(pattern, "uniform") == 0 ? kUniform : kSkewed, reads);
      rows.push_back(std::move(r));
    }

  // Enumeration, exact random walk, then the sampling jobs, on opt.jobs threads.
  std::atomic<std::size_t> next{0};
  auto pool = [&](std::size_t count, auto&& work) {
    next = 0;
    std::vector<std::thread> workers;
    for (unsigned j = 0; j < opt.jobs; ++j)
      workers.emplace_back([&] {
        for (std::size_t k; (k = next++) < count;) work(k);
      });
    for (auto& w : workers) w.join();
  };
  pool(rows.size(), [&](std::size_t k) {
    Row& r = rows[k];
    r.orders = std::make_unique<PartialOrders>(r.program);
    double least = 1;
    for (std::size_t i = 0; i < r.orders->size(); ++i) {
      least = std::min(least, r.orders->random_walk_probability(i));
      r.max_preemptions = std::max(r.max_preemptions, r.orders->min_preemptions(i));
      r.max_races = std::max(r.max_races, r.orders->races(i));
    }
    r.random.min_ratio = least;
    r.random.covered = r.orders->size();
    r.sampled.resize(specs.size());
  });
  pool(rows.size() * specs.size(), [&](std::size_t k) {
    Row& r = rows[k / specs.size()];
    const std::size_t s = k % specs.size();
    r.sampled[s] = sample(specs[s], opt.seed + k, *r.orders, opt.samples);
  });

  std::printf("\n%s\n", title);
  std::printf("%3s %-8s %-41s %6s %4s %5s  %-10s", "#", "pattern", "program", "POs", "pre",
              "races", "random");
  for (const char* s : specs) std::printf(" %-14s", s);
  std::printf("\n");
  std::vector<std::vector<double>> columns(specs.size() + 1);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& r = rows[k];
    std::printf("%3zu %-8s %-41s %6zu %4d %5d  %-10s", k + 1, r.pattern, r.program.text().c_str(),
                r.orders->size(), r.max_preemptions, r.max_races,
                ratio_text(r.random, r.orders->size()).c_str());
    columns[0].push_back(r.random.min_ratio);
    for (std::size_t s = 0; s < specs.size(); ++s) {
      std::printf(" %-14s", ratio_text(r.sampled[s], r.orders->size()).c_str());
      columns[s + 1].push_back(r.sampled[s].min_ratio);
    }
    std::printf("\n");
  }
  std::vector<double> means;
  std::vector<bool> bounded(columns.size(), false);  // an upper bound (a 0 in the column)
  std::printf("%-72s", "geometric mean");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    bool b = false;
    means.push_back(geomean(columns[c], opt.samples, &b));
    bounded[c] = b;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.2e", b ? "<" : "", means.back());
    std::printf(c == 0 ? "  %-10s" : " %-14s", buf);
  }
  std::printf("\n");
  // The ratios the paper states. A bounded mean makes its ratio a bound, or unknown.
  auto column = [&](const char* spec) -> std::size_t {
    for (std::size_t s = 0; s < specs.size(); ++s)
      if (std::strcmp(specs[s], spec) == 0) return s + 1;
    return 0;
  };
  auto ratio = [&](std::size_t a, std::size_t b) -> std::string {
    char buf[32];
    const char* rel = bounded[a] ? (bounded[b] ? "?" : "<") : (bounded[b] ? ">" : "");
    if (bounded[a] && bounded[b]) return "? (both incomplete)";
    std::snprintf(buf, sizeof buf, "%s%.2fx", rel, means[a] / means[b]);
    return buf;
  };
  const std::size_t rw = 0, pct = column("pct:3"), pos = column("pos"), star = column("pos*");
  std::printf("weft:  pos / random walk = %s, pos / pct:3 = %s", ratio(pos, rw).c_str(),
              ratio(pos, pct).c_str());
  if (star != 0)
    std::printf(", pos* / pos = %s, pos* / random walk = %s, pos* / pct:3 = %s",
                ratio(star, pos).c_str(), ratio(star, rw).c_str(), ratio(star, pct).c_str());
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    auto value = [&](const char* name) -> std::uint64_t {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "pos_microbench: %s needs a value\n", name);
        std::exit(2);
      }
      return std::strtoull(argv[++i], nullptr, 10);
    };
    if (!std::strcmp(argv[i], "--samples"))
      opt.samples = std::max<std::uint64_t>(1, value("--samples"));
    else if (!std::strcmp(argv[i], "--programs"))
      opt.programs = std::max<std::uint64_t>(1, value("--programs"));
    else if (!std::strcmp(argv[i], "--seed"))
      opt.seed = value("--seed");
    else if (!std::strcmp(argv[i], "--jobs"))
      opt.jobs = static_cast<unsigned>(std::max<std::uint64_t>(1, value("--jobs")));
    else {
      std::fprintf(stderr,
                   "usage: pos_microbench [--samples N] [--programs P] [--seed S] [--jobs J]\n");
      return 2;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::printf(
      "POS micro-benchmark (Yuan, Yang, Gu, CAV'18, section 6.1): 4 threads x 4 events over 4 "
      "objects,\n%zu uniform {4,4,4,4} and %zu skewed {2,2,6,6} programs per table. Coverage = "
      "minimum hit ratio\nover all partial orders (POs); random walk exact, the others from "
      "%llu executions each (seed %llu).\npre: most preemptions any PO needs; races: most "
      "races (the paper's D_E) in any PO.\n0(x/y): x of the y POs hit.\n",
      opt.programs, opt.programs, static_cast<unsigned long long>(opt.samples),
      static_cast<unsigned long long>(opt.seed));
  run_table("Table 1: every access a write", 0, {"pct:3", "pos"}, opt, opt.seed);
  std::printf("paper: POS ~134.1x better than random walk and PCT by geometric mean "
              "(PCT given the exact number of preemptions each program needs)\n");
  run_table("Table 2: half of the accesses reads (two reads commute)", 8, {"pct:3", "pos", "pos*"},
            opt, opt.seed + 1000);
  std::printf("paper: POS* ~1.4x better than POS, ~226.4x better than random walk and PCT\n");
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\n%.1f s\n", s);
  return 0;
}
