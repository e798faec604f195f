// The pure parsers behind weft run's options and the WEFT_* variables, on any text:
// numbers (core/numbers.hpp, weft/environment.hpp, and the CLI11 transform of
// cli/number_option.hpp), --bound (parse_bound_option), --shard and WEFT_SHARD
// (Shard::parse, parse_shard), --expect-exit and WEFT_EXPECT_EXIT (ExpectedExit::parse),
// and the shard an engine's variables choose (resolve_shard: the input's lines are
// --shard's text, --shards' and then NAME=VALUE variables).
//
// Invariants: a number is read as an integer, exactly, in its range, or refused with the
// one error text wherever it arrives; what a parser accepts, its canonical text reads
// back to the same value; a shard chosen is a valid one.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "cli/number_option.hpp"
#include "cli/shard_source.hpp"
#include "core/expected_exit.hpp"
#include "core/numbers.hpp"
#include "core/shard.hpp"
#include "fuzz/fuzz_check.hpp"
#include "strategy/registry.hpp"
#include "weft/environment.hpp"

namespace {

using namespace weft;

// Decimal digits only, of a value below 2^64: what every whole-number reader accepts.
bool whole_text(const std::string& text, std::uint64_t* value) {
  if (text.empty()) return false;
  unsigned __int128 v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > ~std::uint64_t{0}) return false;
  }
  *value = static_cast<std::uint64_t>(v);
  return true;
}

void whole_numbers(const std::string& text) {
  std::uint64_t exact = 0;
  const bool is_whole = whole_text(text, &exact);
  std::uint64_t v = 7;
  FUZZ_CHECK(detail::parse_whole(text, &v) == is_whole, "parse_whole accepts digits only: " + text);
  FUZZ_CHECK(!is_whole || v == exact, "parse_whole reads the integer exactly: " + text);
  for (const WholeNumber& n : {kSeedNumber, kExecutionsNumber, kStepsNumber, kJobsNumber}) {
    std::uint64_t out = 7;
    const std::string e = read_number(text, n, &out);
    const bool ok = is_whole && exact >= n.lo && exact <= n.hi;
    FUZZ_CHECK(e.empty() == ok, "read_number: " + text + ": " + e);
    FUZZ_CHECK(ok ? out == exact : out == 7, "read_number's value: " + text);
    FUZZ_CHECK(ok || e == not_valid(text, n.accepted), "read_number's error: " + e);
    // weft run's option: the same verdict and error, handed on in plain decimal.
    std::string option = text;
    const std::string oe = cli::number_option(n)(option);
    FUZZ_CHECK(oe == e, "--option and WEFT_* give the same error: '" + oe + "' vs '" + e + "'");
    FUZZ_CHECK(!ok || option == std::to_string(exact), "the option handed on: " + option);
  }
}

void seconds(const std::string& text) {
  for (const Seconds& n : {kTimeSeconds, kHangTimeoutSeconds}) {
    double v = -1;
    const std::string e = read_number(text, n, &v);
    std::string option = text;
    FUZZ_CHECK(cli::number_option(n)(option) == e, "--option and WEFT_* give the same error");
    if (!e.empty()) {
      FUZZ_CHECK(v == -1, "a refused number leaves the value alone");
      FUZZ_CHECK(e == not_valid(text, n.accepted), "read_number's error: " + e);
      continue;
    }
    FUZZ_CHECK(std::isfinite(v) && v >= n.lo && v <= n.hi, "seconds in range: " + text);
    FUZZ_CHECK(text.find_first_not_of("0123456789.") == std::string::npos,
               "seconds are digits and a point: " + text);
    // As weft run hands seconds to its program's fork server: the same value arrives.
    double back = -1;
    const std::string handed = seconds_text(v);
    FUZZ_CHECK(read_number(handed, n, &back).empty() && back == v,
               "seconds_text reads back exactly: " + text + " -> " + handed);
  }
}

void bound(const std::string& text) {
  std::uint64_t b = 7, exact = 0;
  std::string error;
  const bool ok = parse_bound_option(text, &b, &error);
  const bool want = text.rfind("pb:", 0) == 0 && whole_text(text.substr(3), &exact) && exact <= 1000000;
  FUZZ_CHECK(ok == want, "--bound pb:<c>: " + text);
  FUZZ_CHECK(!ok || b == exact, "--bound's value: " + text);
  FUZZ_CHECK(ok || (!error.empty() && fuzz::one_line(error)), "--bound's refusal: " + error);
}

void shard_and_exit(const std::string& text) {
  Shard s;
  if (Shard::parse(text, &s)) {
    Shard back;
    FUZZ_CHECK(Shard::parse(std::to_string(s.index) + "/" + std::to_string(s.count), &back) &&
                   back.index == s.index && back.count == s.count,
               "a shard's text reads back: " + text);
  }
  std::string error;
  Shard p;
  if (cli::parse_shard(text, &p, &error))
    FUZZ_CHECK(p.valid() && p.count <= Shard::kMaxCount, "--shard gives a valid shard: " + text);
  else
    FUZZ_CHECK(!error.empty(), "--shard's refusal says why");
  ExpectedExit x;
  if (const std::string e = ExpectedExit::parse(text, &x); e.empty()) {
    FUZZ_CHECK(x.any || (x.status >= 0 && x.status <= 255), "an exit status: " + text);
    FUZZ_CHECK(x.text() == text, "--expect-exit reads only its canonical text: " + text);
  }
}

// Lines: --shard's text, --shards' count, then NAME=VALUE (the environment).
void engines(std::string_view input) {
  std::string explicit_shard;
  std::uint32_t shards = 0;
  std::map<std::string, std::string> env;
  for (int line = 0; !input.empty(); ++line) {
    const std::size_t nl = input.find('\n');
    const std::string text(input.substr(0, nl));
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
    if (line == 0) {
      explicit_shard = text;
    } else if (line == 1) {
      std::uint64_t v = 0;
      if (whole_text(text, &v)) shards = static_cast<std::uint32_t>(v);
    } else if (const std::size_t eq = text.find('='); eq != std::string::npos) {
      env[text.substr(0, eq)] = text.substr(eq + 1);
    }
  }
  cli::ShardChoice choice;
  std::string error;
  const bool ok = cli::resolve_shard(explicit_shard, shards, &choice, &error,
                                     [&](const char* name) -> const char* {
                                       auto it = env.find(name);
                                       return it == env.end() ? nullptr : it->second.c_str();
                                     });
  if (!ok) {
    FUZZ_CHECK(!error.empty(), "a refusal says why");
    return;
  }
  FUZZ_CHECK(choice.shard.valid(), "the shard chosen is valid");
  FUZZ_CHECK(choice.shard.count <= Shard::kMaxCount, "the shard count is one weft merge takes");
  if (!explicit_shard.empty()) {
    Shard s;
    FUZZ_CHECK(cli::parse_shard(explicit_shard, &s, &error) && s.index == choice.shard.index &&
                   s.count == choice.shard.count,
               "an explicit --shard wins");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  whole_numbers(text);
  seconds(text);
  bound(text);
  shard_and_exit(text);
  engines(text);
  return 0;
}
