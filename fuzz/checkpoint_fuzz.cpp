// The checkpoint reader on any bytes (weft run --checkpoint FILE, WEFT_CHECKPOINT), and
// the state it holds handed to every strategy that can resume.
//
// Invariants:
//  - a refusal is one line;
//  - a decoded checkpoint encodes to bytes that decode to the same checkpoint (the
//    header's fields, the state's words);
//  - a strategy's load_state() on any words refuses them or takes them, never crashes or
//    hangs, and a strategy that took them answers coverage() and next_execution().
// The checksum is FNV-1a, which mutations break: each input is decoded as given and again
// with its check line replaced by the right one, so that mutated bodies get decoded.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/checkpoint.hpp"
#include "core/schedule.hpp"
#include "fuzz/fuzz_check.hpp"
#include "strategy/registry.hpp"

namespace {

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

void load_everywhere(const weft::Checkpoint& c) {
  for (const char* spec : {"dfs", "pb", "db:2", "dpor", "bf:pb", "vb:2", "random", "pct:3", "pos", "portfolio"}) {
    std::string error;
    auto s = weft::make_strategy(spec, 0, &error, {});
    FUZZ_CHECK(s != nullptr, error);
    if (!s->distribution().load_state(c.state)) continue;
    (void)s->coverage();
    (void)s->next_execution();
  }
}

void check_decode(std::string_view bytes) {
  weft::Checkpoint c;
  std::string error;
  if (!weft::decode_checkpoint(bytes, &c, &error)) {
    FUZZ_CHECK(!error.empty() && weft::fuzz::one_line(error), "a refusal, in one line: " + error);
    return;
  }
  const std::string again = weft::encode_checkpoint(c);
  weft::Checkpoint d;
  FUZZ_CHECK(weft::decode_checkpoint(again, &d, &error), "a checkpoint's encoding decodes: " + error);
  FUZZ_CHECK(d.fingerprint == c.fingerprint && d.options == c.options && d.executions == c.executions &&
                 d.classes == c.classes && d.bugs == c.bugs && d.complete == c.complete &&
                 d.points == c.points && d.state == c.state,
             "the same checkpoint after encoding");
  load_everywhere(c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_decode(bytes);
  // With the right checksum, so that the body's mutations are read.
  const std::size_t at = bytes.rfind("check ");
  const std::string body(bytes.substr(0, at == std::string_view::npos ? bytes.size() : at));
  check_decode(body + "check " + hex16(weft::fnv1a64(body)) + "\n");
  return 0;
}
