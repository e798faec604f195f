#include "core/schedule.hpp"

#include <charconv>
#include <cstdio>

#include "core/numbers.hpp"

namespace weft {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

constexpr std::string_view kMagic = "weft1";
constexpr std::string_view kMagicPoints = "weft2";
constexpr std::string_view kMagicOptions = "weft3";

bool needs_escape(char c) {
  return c == '.' || c == '%' || static_cast<unsigned char>(c) <= ' ' ||
         static_cast<unsigned char>(c) >= 0x7f;
}

// extra: more characters to escape, in a field of items (the points: a module's path may
// hold a comma; the options' "name=value").
std::string escape(std::string_view s, std::string_view extra = "") {
  std::string out;
  for (char c : s) {
    if (needs_escape(c) || extra.find(c) != std::string_view::npos) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

bool unescape(std::string_view s, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      *out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return false;
    unsigned v = 0;
    auto r = std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16);
    if (r.ec != std::errc() || r.ptr != s.data() + i + 3) return false;
    *out += static_cast<char>(v);
    i += 2;
  }
  return true;
}

// A message quoting the schedule's text stays one line: its control characters (a CR
// mid-line, a line break in WEFT_SCHEDULE) are shown as \xNN.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string hex64(std::uint64_t v, int digits) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

template <typename T>
bool parse_number(std::string_view s, T* out, int base = 10) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out, base);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A comma-separated field's items, "" giving none.
std::vector<std::string_view> items_of(std::string_view field) {
  std::vector<std::string_view> items;
  for (std::size_t start = 0; !field.empty();) {
    const std::size_t comma = field.find(',', start);
    items.push_back(field.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string body_of(const Schedule& s) {
  std::string out(s.records_options ? kMagicOptions : s.points.empty() ? kMagic : kMagicPoints);
  out += '.';
  out += hex64(s.fingerprint, 16);
  out += '.';
  out += escape(s.strategy);
  out += '.';
  out += std::to_string(s.seed);
  out += '.';
  if (s.records_options) out += encode_schedule_options(s.options) + '.';
  if (!s.points.empty() || s.records_options) {
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      if (i > 0) out += ',';
      out += escape(s.points[i], ",");
    }
    out += '.';
  }
  bool first = true;
  for (std::size_t i = 0; i < s.decisions.size();) {
    const Decision& d = s.decisions[i];
    std::size_t run = 1;
    if (d.kind == Decision::kThread)
      while (i + run < s.decisions.size() && s.decisions[i + run] == d) ++run;
    if (!first) out += ',';
    first = false;
    if (d.kind == Decision::kValue) out += 'v';
    out += std::to_string(d.value);
    if (run > 1) {
      out += 'x';
      out += std::to_string(run);
    }
    i += run;
  }
  return out;
}

}  // namespace

std::string encode_schedule_options(
    const std::vector<std::pair<std::string, std::string>>& options) {
  std::string out;
  for (const auto& [name, value] : options)
    out += (out.empty() ? "" : ",") + escape(name, ",=") + '=' + escape(value, ",=");
  return out;
}

bool decode_schedule_options(std::string_view field,
                             std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  for (std::string_view item : items_of(field)) {
    const std::size_t eq = item.find('=');
    std::string name, value;
    if (eq == std::string_view::npos || !unescape(item.substr(0, eq), &name) || name.empty() ||
        !unescape(item.substr(eq + 1), &value))
      return false;
    out->emplace_back(std::move(name), std::move(value));
  }
  return true;
}

std::uint64_t recorded_step_bound(std::string_view text, std::uint64_t otherwise) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (text.substr(0, kMagicOptions.size() + 1) != std::string(kMagicOptions) + ".")
    return otherwise;
  std::string_view rest = text;
  for (int field = 0; field < 4; ++field) {
    const std::size_t dot = rest.find('.');
    if (dot == std::string_view::npos) return otherwise;
    rest.remove_prefix(dot + 1);
  }
  std::vector<std::pair<std::string, std::string>> options;
  if (!decode_schedule_options(rest.substr(0, rest.find('.')), &options)) return otherwise;
  for (const auto& [name, value] : options) {
    std::uint64_t steps = 0;
    if (name == "steps" && parse_number(std::string_view(value), &steps) &&
        steps >= kStepsNumber.lo && steps <= kStepsNumber.hi)
      return steps;
  }
  return otherwise;
}

std::string encode_schedule(const Schedule& s) {
  std::string body = body_of(s);
  const auto check = static_cast<std::uint32_t>(fnv1a64(body));
  return body + '.' + hex64(check, 8);
}

bool decode_schedule(std::string_view text, Schedule* out, std::string* error,
                     std::uint64_t max_decisions) {
  auto fail = [&](const std::string& what) {
    *error = "invalid schedule: " + printable(what) +
             " (expected weft3.<fingerprint>.<strategy>.<seed>.<options>.<points>.<decisions>."
             "<check>, or weft1 or weft2, as printed by weft)";
    return false;
  };
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    std::size_t dot = text.find('.', start);
    fields.push_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (fields.empty() ||
      (fields[0] != kMagic && fields[0] != kMagicPoints && fields[0] != kMagicOptions)) {
    if (text.rfind("weft", 0) == 0)
      return fail("unsupported version '" + std::string(fields[0]) + "', this weft reads " +
                  std::string(kMagicOptions) + ", " + std::string(kMagicPoints) + " and " +
                  std::string(kMagic));
    return fail("it does not start with " + std::string(kMagicOptions) + " (or " +
                std::string(kMagic) + ", " + std::string(kMagicPoints) + ")");
  }
  Schedule s;
  if (fields[0] == kMagicOptions) {
    if (fields.size() != 8)
      return fail("it has " + std::to_string(fields.size()) +
                  " dot-separated fields, not 8 "
                  "(truncated?)");
    s.records_options = true;
    if (!decode_schedule_options(fields[4], &s.options))
      return fail("the options field '" + std::string(fields[4]) +
                  "' is malformed (expected name=value items, separated by commas)");
    fields.erase(fields.begin() + 4);
  }
  if (fields[0] != kMagic) {
    if (fields.size() != 7)
      return fail("it has " + std::to_string(fields.size()) +
                  " dot-separated fields, not 7 "
                  "(truncated?)");
    std::string_view ps = fields[4];
    // weft2 names at least one point; weft3 may name none.
    if (ps.empty() && !s.records_options) return fail("the points field is empty");
    for (std::string_view item : items_of(ps)) {
      std::string point;
      if (!unescape(item, &point) || point.empty())
        return fail("the points field '" + std::string(ps) + "' is malformed");
      s.points.push_back(point);
    }
    fields.erase(fields.begin() + 4);
  } else if (fields.size() != 6) {
    return fail("it has " + std::to_string(fields.size()) +
                " dot-separated fields, not 6 "
                "(truncated?)");
  }
  std::uint32_t check = 0;
  if (fields[5].size() != 8 || !parse_number(fields[5], &check, 16))
    return fail("the check field '" + std::string(fields[5]) + "' is not 8 hex digits");
  std::string_view body = text.substr(0, text.size() - fields[5].size() - 1);
  if (static_cast<std::uint32_t>(fnv1a64(body)) != check)
    return fail("the check does not match its contents (truncated or edited?)");

  if (fields[1].size() != 16 || !parse_number(fields[1], &s.fingerprint, 16))
    return fail("the fingerprint '" + std::string(fields[1]) + "' is not 16 hex digits");
  if (!unescape(fields[2], &s.strategy) || s.strategy.empty())
    return fail("the strategy field '" + std::string(fields[2]) + "' is malformed");
  if (!parse_number(fields[3], &s.seed))
    return fail("the seed '" + std::string(fields[3]) + "' is not a number");
  std::string_view ds = fields[4];
  for (std::size_t start = 0; !ds.empty() && start <= ds.size();) {
    std::size_t comma = ds.find(',', start);
    std::string_view tok =
        ds.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    Decision d;
    if (!tok.empty() && tok[0] == 'v') {
      d.kind = Decision::kValue;
      tok.remove_prefix(1);
    }
    std::uint64_t run = 1;
    if (auto x = tok.find('x'); x != std::string_view::npos) {
      if (d.kind == Decision::kValue || !parse_number(tok.substr(x + 1), &run) || run < 2 ||
          run > (1u << 30))
        return fail("decision '" + std::string(tok) + "' has a malformed repeat count");
      tok = tok.substr(0, x);
    }
    if (!parse_number(tok, &d.value))
      return fail("decision " + std::to_string(s.decisions.size()) + " ('" + std::string(tok) +
                  "') is not a number");
    if (run > max_decisions - s.decisions.size()) {
      *error = "invalid schedule: it holds more than " + std::to_string(max_decisions) +
               " decisions, more than an execution within the step bound makes (a longer "
               "one needs a larger step bound: --steps, Options::max_steps)";
      return false;
    }
    s.decisions.insert(s.decisions.end(), run, d);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  *out = std::move(s);
  return true;
}

}  // namespace weft
