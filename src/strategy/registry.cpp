#include "strategy/registry.hpp"

#include <charconv>

#include "strategy/best_first.hpp"
#include "strategy/dfs.hpp"
#include "strategy/delay_bound.hpp"
#include "strategy/dpor.hpp"
#include "strategy/pct.hpp"
#include "strategy/pctvb.hpp"
#include "strategy/portfolio.hpp"
#include "strategy/pos.hpp"
#include "strategy/preemption_bound.hpp"
#include "strategy/random_walk.hpp"
#include "strategy/thread_bound.hpp"
#include "strategy/variable_bound.hpp"

namespace weft {

namespace {

// Makes a strategy from the text after "name:" (has_arg false: there was no colon).
using Factory = std::unique_ptr<Strategy> (*)(const StrategyInfo& info, bool has_arg,
                                              std::string_view arg, std::uint64_t seed,
                                              std::string* error, const StrategyOptions& options);

struct Entry {
  StrategyInfo info;
  Factory make;
};

// The user's text in a message, kept to one printable line.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::unique_ptr<Strategy> fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return nullptr;
}

bool no_argument(const StrategyInfo& info, bool has_arg, std::string_view arg, std::string* error) {
  if (!has_arg) return true;
  fail(error, std::string(info.name) + " takes no argument, got " + quoted(arg) +
                  " (usage: " + std::string(info.usage) + ")");
  return false;
}

// An unsigned decimal in [lo, hi], the whole text.
bool parse_uint(std::string_view text, std::uint64_t lo, std::uint64_t hi, std::uint64_t* out) {
  if (text.empty()) return false;
  std::uint64_t v = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return false;
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

constexpr std::uint64_t kPctDefaultDepth = 3;
constexpr std::uint64_t kPctMaxDepth = 1000;
constexpr std::uint64_t kPctvbMaxVariables = 1000;
constexpr std::uint64_t kPctvbDefaultVariables = 2;  // most bugs involve one or two

// tb[:<t>[:<c>]]: a thread bound t in [2, kTbMaxThreads] (t! grows fast), c preemptions.
constexpr std::uint64_t kTbDefaultThreads = 3;
constexpr std::uint64_t kTbMaxThreads = 8;
constexpr std::uint64_t kTbMaxPreemptions = 1000;
std::unique_ptr<Strategy> make_thread_bound(const StrategyInfo& info, bool has_arg,
                                            std::string_view arg, std::uint64_t seed,
                                            std::string* error, const StrategyOptions&) {
  const std::string usage = " (usage: " + std::string(info.usage) + ")";
  const std::size_t colon = arg.find(':');
  const std::string_view t_text = arg.substr(0, colon);
  std::uint64_t t = kTbDefaultThreads, c = 0;
  if (has_arg && !parse_uint(t_text, 2, kTbMaxThreads, &t))
    return fail(error, "tb: the thread bound t must be an integer from 2 to " +
                           std::to_string(kTbMaxThreads) + ", got " + quoted(t_text) + usage);
  if (colon != std::string_view::npos &&
      !parse_uint(arg.substr(colon + 1), 0, kTbMaxPreemptions, &c))
    return fail(error, "tb: the preemption count c must be an integer from 0 to " +
                           std::to_string(kTbMaxPreemptions) + ", got " +
                           quoted(arg.substr(colon + 1)) + usage);
  return std::make_unique<ThreadBoundStrategy>(seed, static_cast<std::uint32_t>(t),
                                               static_cast<std::uint32_t>(c));
}

// vb's levels, (v + 1) * (c + 1), 16 bytes each and scanned once per execution: 2^20 at
// most (vb:100,40500's 4 million took seconds to make).
constexpr std::uint64_t kVbMaxLevels = std::uint64_t{1} << 20;

// pb and db: no argument (iterate until every schedule has run) or a bound in [0, kMaxBound].
constexpr std::uint64_t kMaxBound = 1000000;
bool parse_bound(const StrategyInfo& info, bool has_arg, std::string_view arg, const char* what,
                 std::uint64_t* bound, std::string* error) {
  *bound = BoundedSearch::kUnbounded;
  if (!has_arg || parse_uint(arg, 0, kMaxBound, bound)) return true;
  fail(error, std::string(info.name) + ": the " + what + " must be an integer from 0 to " +
                  std::to_string(kMaxBound) + ", got " + quoted(arg) +
                  " (usage: " + std::string(info.usage) + ")");
  return false;
}

void apply(Strategy& s, const StrategyOptions& options) {
  if (auto* tree = dynamic_cast<TreeStrategy*>(&s)) {
    tree->set_state_cache(options.state_cache);
  } else if (auto* portfolio = dynamic_cast<PortfolioStrategy*>(&s)) {
    portfolio->for_each_member([&](Strategy& m) { apply(m, options); });
  }
}

// portfolio[:<s>+<s>+...]: members made by this registry, seeded apart.
constexpr std::string_view kPortfolioDefault = "pos*+pct:3+random+pb";
std::unique_ptr<Strategy> make_portfolio(const StrategyInfo& info, bool has_arg,
                                         std::string_view arg, std::uint64_t seed,
                                         std::string* error, const StrategyOptions& options) {
  const std::string usage = " (usage: " + std::string(info.usage) + ")";
  std::string_view specs = has_arg ? arg : kPortfolioDefault;
  std::vector<PortfolioStrategy::Member> members;
  while (true) {
    const std::size_t plus = specs.find('+');
    const std::string_view spec = specs.substr(0, plus);
    if (spec.empty()) return fail(error, "portfolio: an empty member in " + quoted(arg) + usage);
    if (spec.substr(0, spec.find(':')) == "portfolio")
      return fail(error, "portfolio: a portfolio cannot be a member of another" + usage);
    std::string why;
    // Members are seeded apart, so that two samplers of one kind do not repeat each other.
    StrategyOptions member_options = options;
    member_options.preemption_bound = StrategyOptions::kNoBound;  // refused above
    auto s = make_strategy(spec, seed + 0x9e3779b97f4a7c15ull * (members.size() + 1), &why,
                           member_options);
    if (!s) return fail(error, "portfolio: member " + quoted(spec) + ": " + why);
    members.push_back({std::string(spec), std::move(s)});
    if (plus == std::string_view::npos) break;
    specs = specs.substr(plus + 1);
  }
  return std::make_unique<PortfolioStrategy>(std::move(members));
}

// bf[:<p>[,<p>...]]: priority names; method= and var= take the comma-separated names
// that follow them, up to the next priority name.
constexpr std::string_view kBfDefault = "mdpor,pb";
std::unique_ptr<Strategy> make_best_first(const StrategyInfo& info, bool has_arg,
                                          std::string_view arg, std::uint64_t seed,
                                          std::string* error, const StrategyOptions& options) {
  const std::string usage = " (usage: " + std::string(info.usage) + ")";
  const std::string_view text = has_arg ? arg : kBfDefault;
  struct Named {
    std::string_view name;
    BfPriority::Kind kind;
  };
  static constexpr Named kNames[] = {{"pb", BfPriority::Kind::kPb},
                                     {"dpor", BfPriority::Kind::kDpor},
                                     {"mdpor", BfPriority::Kind::kMdpor},
                                     {"ss", BfPriority::Kind::kSs},
                                     {"rand", BfPriority::Kind::kRand}};
  const std::string known =
      "pb, dpor, mdpor, ss, rand, method=<function>[,...], "
      "var=<variable or 0xaddress>[,...]";
  std::vector<BfPriority> priorities;
  bool open_list = false;  // the last priority is method= or var= and takes names
  auto add_name = [&](std::string_view name) -> bool {
    BfPriority& p = priorities.back();
    const bool var = p.kind == BfPriority::Kind::kVar;
    const char* what = var ? "var" : "method";
    if (name.empty()) {
      fail(error, std::string("bf: ") + what + "= needs at least one name" + usage);
      return false;
    }
    std::uint64_t address = 0;
    if (var && name.substr(0, 2) == "0x") {
      auto r = std::from_chars(name.data() + 2, name.data() + name.size(), address, 16);
      if (r.ec != std::errc() || r.ptr != name.data() + name.size() || address == 0) {
        fail(error, "bf: var=" + quoted(name) + " is not an address (0x followed by hex digits)");
        return false;
      }
      p.ranges.push_back({address, address + 1});
      return true;
    }
    if (options.symbols == nullptr) {
      if (options.syntax_only) return true;
      fail(error, std::string("bf: ") + what + "=" + quoted(name) +
                      " needs the program's symbols, which are not available here");
      return false;
    }
    auto found = var ? options.symbols->variables(name) : options.symbols->functions(name);
    if (found.empty()) {
      fail(error, std::string("bf: ") + what + "=" + quoted(name) + " names no " +
                      (var ? "global or static variable" : "function") + " in the program");
      return false;
    }
    p.ranges.insert(p.ranges.end(), found.begin(), found.end());
    return true;
  };
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view token = rest.substr(0, comma);
    const std::size_t eq = token.find('=');
    const Named* named = nullptr;
    for (const Named& n : kNames)
      if (n.name == token) named = &n;
    if (named != nullptr) {
      priorities.push_back({named->kind, {}});
      open_list = false;
    } else if (eq != std::string_view::npos &&
               (token.substr(0, eq) == "method" || token.substr(0, eq) == "var")) {
      priorities.push_back(
          {token.substr(0, eq) == "var" ? BfPriority::Kind::kVar : BfPriority::Kind::kMethod, {}});
      if (!add_name(token.substr(eq + 1))) return nullptr;
      open_list = true;
    } else if (open_list && eq == std::string_view::npos && !token.empty()) {
      if (!add_name(token)) return nullptr;
    } else {
      return fail(error, "bf: unknown priority " + quoted(token) + "; known: " + known + usage);
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (priorities.size() > BestFirstStrategy::kMaxPriorities)
    return fail(error, "bf: at most " + std::to_string(BestFirstStrategy::kMaxPriorities) +
                           " priorities, got " + std::to_string(priorities.size()) + usage);
  const std::uint64_t bound = options.preemption_bound == StrategyOptions::kNoBound
                                  ? BestFirstStrategy::kUnbounded
                                  : options.preemption_bound;
  return std::make_unique<BestFirstStrategy>("bf:" + std::string(text), std::move(priorities),
                                             bound, seed);
}

std::unique_ptr<Strategy> make_random(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                      std::uint64_t seed, std::string* error,
                                      const StrategyOptions&) {
  if (!no_argument(info, has_arg, arg, error)) return nullptr;
  return std::make_unique<RandomWalkStrategy>(seed);
}

std::unique_ptr<Strategy> make_pct(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                   std::uint64_t seed, std::string* error, const StrategyOptions&) {
  std::uint64_t d = kPctDefaultDepth;
  if (has_arg && !parse_uint(arg, 1, kPctMaxDepth, &d))
    return fail(error, "pct: the depth d must be an integer from 1 to " +
                           std::to_string(kPctMaxDepth) + ", got " + quoted(arg) +
                           " (usage: " + std::string(info.usage) + ")");
  return std::make_unique<PctStrategy>(seed, static_cast<std::uint32_t>(d));
}

std::unique_ptr<Strategy> make_pctvb(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                     std::uint64_t seed, std::string* error,
                                     const StrategyOptions&) {
  const std::string usage = " (usage: " + std::string(info.usage) + ")";
  const std::size_t comma = arg.find(',');
  std::uint64_t d = kPctDefaultDepth, v = kPctvbDefaultVariables;
  if (!has_arg)
    return std::make_unique<PctvbStrategy>(seed, static_cast<std::uint32_t>(d),
                                           static_cast<std::uint32_t>(v));
  if (comma == std::string_view::npos)
    return fail(error, "pctvb needs a depth and a variable count, got " + quoted(arg) + usage);
  if (!parse_uint(arg.substr(0, comma), 1, kPctMaxDepth, &d))
    return fail(error, "pctvb: the depth d must be an integer from 1 to " +
                           std::to_string(kPctMaxDepth) + ", got " + quoted(arg.substr(0, comma)) +
                           usage);
  if (!parse_uint(arg.substr(comma + 1), 1, kPctvbMaxVariables, &v))
    return fail(error, "pctvb: the variable count v must be an integer from 1 to " +
                           std::to_string(kPctvbMaxVariables) + ", got " +
                           quoted(arg.substr(comma + 1)) + usage);
  return std::make_unique<PctvbStrategy>(seed, static_cast<std::uint32_t>(d),
                                         static_cast<std::uint32_t>(v));
}

std::unique_ptr<Strategy> make_pos(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                   std::uint64_t seed, std::string* error, const StrategyOptions&) {
  if (!no_argument(info, has_arg, arg, error)) return nullptr;
  return std::make_unique<PosStrategy>(seed, false);
}

std::unique_ptr<Strategy> make_pos_star(const StrategyInfo& info, bool has_arg,
                                        std::string_view arg, std::uint64_t seed,
                                        std::string* error, const StrategyOptions&) {
  if (!no_argument(info, has_arg, arg, error)) return nullptr;
  return std::make_unique<PosStrategy>(seed, true);
}

std::unique_ptr<Strategy> make_dfs(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                   std::uint64_t, std::string* error,
                                   const StrategyOptions& options) {
  if (!no_argument(info, has_arg, arg, error)) return nullptr;
  return std::make_unique<DfsStrategy>(options.preemption_bound == StrategyOptions::kNoBound
                                           ? DfsStrategy::kUnbounded
                                           : options.preemption_bound);
}

std::unique_ptr<Strategy> make_dpor(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                    std::uint64_t, std::string* error, const StrategyOptions&) {
  if (!no_argument(info, has_arg, arg, error)) return nullptr;
  return std::make_unique<DporStrategy>();
}

std::unique_ptr<Strategy> make_vb(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                  std::uint64_t, std::string* error, const StrategyOptions&) {
  const std::string usage = " (usage: " + std::string(info.usage) + ")";
  const std::size_t comma = arg.find(',');
  std::uint64_t v = VariableBoundStrategy::kDefaultVariables,
                c = VariableBoundStrategy::kDefaultPreemptions;
  if (!has_arg) return std::make_unique<VariableBoundStrategy>(static_cast<std::uint32_t>(v), c);
  if (!parse_uint(arg.substr(0, comma), 1, kPctvbMaxVariables, &v))
    return fail(error, "vb: the variable bound v must be an integer from 1 to " +
                           std::to_string(kPctvbMaxVariables) + ", got " +
                           quoted(arg.substr(0, comma)) + usage);
  if (comma != std::string_view::npos && !parse_uint(arg.substr(comma + 1), 1, kMaxBound, &c))
    return fail(error, "vb: the preemption bound c must be an integer from 1 to " +
                           std::to_string(kMaxBound) + ", got " + quoted(arg.substr(comma + 1)) +
                           usage);
  // Its table has a counter pair per level (v + 1) * (c + 1): vb:1000,1000000 asked
  // for 16 GB before the search began.
  if ((v + 1) * (c + 1) > kVbMaxLevels)
    return fail(error, "vb: v=" + std::to_string(v) + " and c=" + std::to_string(c) +
                           " make (v+1)*(c+1) = " + std::to_string((v + 1) * (c + 1)) +
                           " levels, more than " + std::to_string(kVbMaxLevels) +
                           ": give a smaller v or c" + usage);
  return std::make_unique<VariableBoundStrategy>(static_cast<std::uint32_t>(v), c);
}

std::unique_ptr<Strategy> make_pb(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                  std::uint64_t, std::string* error, const StrategyOptions&) {
  std::uint64_t c;
  if (!parse_bound(info, has_arg, arg, "preemption bound c", &c, error)) return nullptr;
  return std::make_unique<PreemptionBoundStrategy>(c);
}

std::unique_ptr<Strategy> make_db(const StrategyInfo& info, bool has_arg, std::string_view arg,
                                  std::uint64_t, std::string* error, const StrategyOptions&) {
  std::uint64_t d;
  if (!parse_bound(info, has_arg, arg, "delay bound d", &d, error)) return nullptr;
  return std::make_unique<DelayBoundStrategy>(d);
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> kEntries = {
      {{"random", "random",
        "random walk: each step runs an enabled thread chosen uniformly (the baseline of "
        "the PCT and POS papers)"},
       make_random},
      {{"pct", "pct[:<d>]",
        "PCT (Burckhardt et al., ASPLOS'10): random thread priorities and d-1 random "
        "priority change points; finds a depth-d bug with probability >= 1/(n*k^(d-1)); "
        "d defaults to 3"},
       make_pct},
      {{"pctvb", "pctvb[:<d>,<v>]",
        "PCT with variable bounding (variable and thread bounding paper, section 3): the "
        "d-1 change points fall on accesses to v shared variables drawn per execution "
        "(default 3,2); needs an instrumented program"},
       make_pctvb},
      {{"pos", "pos",
        "POS, partial order sampling (Yuan, Yang, Gu, CAV'18): a random priority per pending "
        "event, the highest runs, events on the object it touched draw new priorities"},
       make_pos},
      {{"pos*", "pos*",
        "POS* (Yuan, Yang, Gu, CAV'18): POS with the read-only relaxation, a read does not "
        "redraw the priority of a read"},
       make_pos_star},
      {{"tb", "tb[:<t>[:<c>]]",
        "thread bounding (Bindal, Bansal, Lal, section 4): a random priority permutation of "
        "the threads (and c preemption fragments) per execution; every ordering of t "
        "threads w.p. 99% after t!(t ln n + ln 100) executions; t defaults to 3"},
       make_thread_bound},
      {{"dfs", "dfs",
        "exhaustive depth-first search over the execution tree (GAMBIT, PPoPP'10): every "
        "schedule once, then complete"},
       make_dfs},
      {{"dpor", "dpor",
        "dynamic partial-order reduction with sleep sets (Flanagan and Godefroid, "
        "POPL'05): only orders a race of an earlier execution shows may matter; complete "
        "when every happens-before class was explored"},
       make_dpor},
      {{"bf", "bf[:<p>[,<p>...]]",
        "GAMBIT's best-first search (Coons et al., PPoPP'10): the execution tree's frontier "
        "ordered by priorities pb, dpor, mdpor, ss, rand, method=<f>[,...], var=<v>[,...] "
        "(the first decides, ties go on); the DPOR space, or with --bound pb:<c> every "
        "execution within the bound; default mdpor,pb"},
       make_best_first},
      {{"vb", "vb[:<v>[,<c>]]",
        "variable bounding for systematic search (Bindal, Bansal, Lal, ISSTA'13, section 2): "
        "every execution whose at most c preemptions touch at most v distinct variables, by "
        "increasing v then c; says which (v, c) were completed; default 2,2"},
       make_vb},
      {{"pb", "pb[:<c>]",
        "iterative preemption bounding (ICB, Musuvathi and Qadeer, PLDI'07): every schedule "
        "with 0 preemptions, then 1, ...; the first bug found has the fewest; stops after "
        "bound c if given"},
       make_pb},
      {{"db", "db[:<d>]",
        "iterative delay bounding (Emmi, Qadeer, Rakamaric, POPL'11): every schedule with 0 "
        "deviations from round-robin scheduling, then 1, ...; stops after bound d if given"},
       make_db},
      {{"portfolio", "portfolio[:<s>+<s>+...]",
        "several strategies in turn, one execution each (GAMBIT: different heuristics win "
        "on different tests); the bug says which found it; default pos*+pct:3+random+pb"},
       make_portfolio},
  };
  return kEntries;
}

std::string known_names() {
  std::string s;
  for (const Entry& e : entries()) {
    if (!s.empty()) s += ", ";
    s += e.info.usage;
  }
  return s;
}

}  // namespace

const std::vector<StrategyInfo>& strategy_list() {
  static const std::vector<StrategyInfo> kList = [] {
    std::vector<StrategyInfo> list;
    for (const Entry& e : entries()) list.push_back(e.info);
    return list;
  }();
  return kList;
}

std::unique_ptr<Strategy> make_strategy(std::string_view spec, std::uint64_t seed,
                                        std::string* error, const StrategyOptions& options) {
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  const bool has_arg = colon != std::string_view::npos;
  const std::string_view arg = has_arg ? spec.substr(colon + 1) : std::string_view();
  for (const Entry& e : entries()) {
    if (e.info.name != name) continue;
    if (options.preemption_bound != StrategyOptions::kNoBound && name != "dfs" && name != "bf")
      return fail(error, "--bound applies to dfs and bf only; " + quoted(name) +
                             (name == "pb" || name == "db" ? " takes its bound in its spec (" +
                                                                 std::string(e.info.usage) + ")"
                                                           : " has no bound"));
    std::unique_ptr<Strategy> s = e.make(e.info, has_arg, arg, seed, error, options);
    if (s) apply(*s, options);
    return s;
  }
  if (spec.empty()) return fail(error, "no strategy given; known: " + known_names());
  return fail(error, "unknown strategy " + quoted(name) + "; known: " + known_names());
}

}  // namespace weft

namespace weft {

bool parse_bound_option(std::string_view text, std::uint64_t* bound, std::string* error) {
  if (text.substr(0, 3) == "pb:" && parse_uint(text.substr(3), 0, kMaxBound, bound)) return true;
  fail(error, "--bound: expected pb:<c> with c an integer from 0 to " + std::to_string(kMaxBound) +
                  " (the preemption bound), got " + quoted(text));
  return false;
}

}  // namespace weft
