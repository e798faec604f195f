#pragma once
// What a strategy can state about the part of the schedule space it has covered.
#include <cstdint>
#include <string>
#include <string_view>

namespace weft {

// What a strategy's coverage can state: nothing (a sampler), every schedule or class, or
// every schedule within a bound of one kind; a portfolio's, its members'.
enum class CoverageKind : std::uint8_t {
  kNone,
  kFull,
  kPreemptionBound,
  kDelayBound,
  kThreadBound,
  kVariableBound,
  kPortfolio,
};

// The name the JSON result and the reports use (a contract: JSON coverage.kind).
constexpr std::string_view coverage_kind_name(CoverageKind k) {
  switch (k) {
    case CoverageKind::kNone: return "none";
    case CoverageKind::kFull: return "full";
    case CoverageKind::kPreemptionBound: return "preemption-bound";
    case CoverageKind::kDelayBound: return "delay-bound";
    case CoverageKind::kThreadBound: return "thread-bound";
    case CoverageKind::kVariableBound: return "variable-bound";
    case CoverageKind::kPortfolio: return "portfolio";
  }
  return "none";
}

struct Coverage {
  CoverageKind kind = CoverageKind::kNone;
  bool complete = false;         // the stated space was explored entirely
  std::int64_t bound = -1;       // for bounded kinds: the largest bound fully explored
  std::uint64_t executions = 0;  // executions that count towards the statement
  std::string summary;           // one line for people
  // With state caching (dfs, pb, db): the distinct happens-before classes of the
  // executions run (0: not counted).
  std::uint64_t classes = 0;
  // Bounded kinds, while a search is under way: the bound being explored now (bound + 1;
  // -1: none) and how many of its executions have run, for a progress line.
  std::int64_t exploring_bound = -1;
  std::uint64_t exploring_executions = 0;
  // Strategies made of others (portfolio): the member that ran the last execution, so
  // that a bug says which one found it. Empty for the others.
  std::string origin;
  // Systematic strategies: GAMBIT's Figure 5 measure of memory, the execution tree's nodes
  // created and the most alive at once (0: no tree).
  std::uint64_t nodes_created = 0;
  std::uint64_t peak_nodes = 0;
  std::uint64_t frontier = 0;  // executions known and not run yet (the tree's fringe)
  // Systematic strategies: the first sign that the program did not behave the same under
  // the same schedule ("" none). Then nothing is claimed, and the run is not complete.
  std::string nondeterminism;
  // Which operations were scheduling points, and so what a claim is about: "sync"
  // (synchronisation, atomics, exits, frees: plain accesses ran between them), "racy"
  // (and the plain accesses seen racing), "every-access" (every instrumented access);
  // "" where the caller does not say (a strategy alone knows nothing of it).
  std::string points;
};

// What a claim over scheduling points `points` is about, for the coverage line ("" when
// not said).
inline std::string points_scope(const std::string& points) {
  if (points == "sync")
    return "synchronisation and atomics only (plain memory accesses were not scheduling points)";
  if (points == "racy") return "synchronisation, atomics and the accesses seen racing";
  if (points == "every-access") return "every instrumented access";
  return "";
}

// The claim's scope, said: `c` learns which points it was about, and its line says so
// when it claims anything.
inline void state_points(Coverage& c, const std::string& points) {
  if (c.kind == CoverageKind::kNone) return;
  c.points = points;
  if (!c.summary.empty()) c.summary += "; points: " + points_scope(points);
}

// Whether a search that ran out of executions to run covered its space: a systematic
// strategy says so in its coverage (not when the program did not follow its schedules, or
// did what its analysis does not follow); a sampler claims nothing either way.
inline bool covered(const Coverage& c) { return c.complete || c.kind == CoverageKind::kNone; }

}  // namespace weft
