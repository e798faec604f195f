#include "core/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/file_text.hpp"
#include "core/line_escape.hpp"
#include "core/schedule.hpp"

namespace weft {

namespace {

constexpr std::string_view kMagic = "weft-checkpoint";

std::string hex16(std::uint64_t v) {
  char buf[17];
  for (int i = 15; i >= 0; --i, v >>= 4) buf[i] = "0123456789abcdef"[v & 15];
  buf[16] = '\0';
  return buf;
}

bool number(std::string_view text, std::uint64_t* v, int base = 10) {
  if (text.empty() || text.size() > 20) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *v, base);
  return ec == std::errc() && end == text.data() + text.size();
}

// Reads the header's lines in order: each starts with `key` and a space.
class Lines {
 public:
  explicit Lines(std::string_view bytes) : rest_(bytes) {}
  bool next(std::string_view key, std::string_view* value) {
    const std::size_t eol = rest_.find('\n');
    if (eol == std::string_view::npos) return false;
    const std::string_view line = rest_.substr(0, eol);
    if (line.size() < key.size() + 1 || line.substr(0, key.size()) != key ||
        line[key.size()] != ' ')
      return false;
    *value = line.substr(key.size() + 1);
    rest_.remove_prefix(eol + 1);
    return true;
  }
  bool peek(std::string_view key) const {
    return rest_.size() > key.size() && rest_.substr(0, key.size()) == key &&
           rest_[key.size()] == ' ';
  }
  std::string_view rest() const { return rest_; }
  void skip(std::size_t n) { rest_.remove_prefix(n); }

 private:
  std::string_view rest_;
};

bool fail(std::string* error, const std::string& what) {
  *error = what;
  return false;
}

// A field quoted in a refusal, its control bytes shown as '?' so the refusal stays one line.
std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

}  // namespace

std::string encode_checkpoint(const Checkpoint& c) {
  std::string s = std::string(kMagic) + " " + std::to_string(Checkpoint::kVersion) + "\n";
  s += "fingerprint " + hex16(c.fingerprint) + "\n";
  for (const auto& [name, value] : c.options)
    s += "option " + name + " " + escape_line(value) + "\n";
  s += "executions " + std::to_string(c.executions) + "\n";
  s += "classes " + std::to_string(c.classes) + "\n";
  s += "bugs " + std::to_string(c.bugs) + "\n";
  s += "complete " + std::string(c.complete ? "1" : "0") + "\n";
  s += "points " + escape_line(c.points) + "\n";
  s += "state " + std::to_string(c.state.size()) + "\n";
  for (std::uint64_t w : c.state)
    for (int b = 0; b < 8; ++b) s += static_cast<char>((w >> (8 * b)) & 0xff);
  s += "check " + hex16(fnv1a64(s)) + "\n";
  return s;
}

bool decode_checkpoint(std::string_view bytes, Checkpoint* out, std::string* error) {
  Checkpoint c;
  Lines lines(bytes);
  std::string_view v;
  std::uint64_t n = 0;
  if (!lines.next(kMagic, &v)) return fail(error, "it is not a weft checkpoint");
  if (v != std::to_string(Checkpoint::kVersion))
    return fail(error, "it is of format version '" + printable(v.substr(0, 20)) +
                           "', this weft reads version " + std::to_string(Checkpoint::kVersion));
  // The checksum first: a damaged file says so, whatever part of it is damaged.
  const std::size_t check_at = bytes.rfind("check ");
  if (check_at == std::string_view::npos || bytes.size() - check_at != 6 + 16 + 1 ||
      bytes.back() != '\n' || !number(bytes.substr(check_at + 6, 16), &n, 16) ||
      n != fnv1a64(bytes.substr(0, check_at)))
    return fail(error, "it is damaged or truncated (its checksum does not match)");
  if (!lines.next("fingerprint", &v) || v.size() != 16 || !number(v, &c.fingerprint, 16))
    return fail(error, "its fingerprint line is malformed");
  while (lines.peek("option")) {
    lines.next("option", &v);
    const std::size_t space = v.find(' ');
    std::string value;
    if (space == std::string_view::npos || space == 0 ||
        !unescape_line(v.substr(space + 1), &value))
      return fail(error, "an option line is malformed");
    c.options.emplace_back(std::string(v.substr(0, space)), value);
  }
  std::uint64_t complete = 0;
  for (auto [key, field] :
       {std::pair{"executions", &c.executions}, std::pair{"classes", &c.classes},
        std::pair{"bugs", &c.bugs}, std::pair{"complete", &complete}})
    if (!lines.next(key, &v) || !number(v, field))
      return fail(error, std::string("its ") + key + " line is malformed");
  if (complete > 1) return fail(error, "its complete line is malformed");
  c.complete = complete == 1;
  if (!lines.next("points", &v) || !unescape_line(v, &c.points))
    return fail(error, "its points line is malformed");
  const std::size_t tail = bytes.size() - check_at;  // the check line
  if (!lines.next("state", &v) || !number(v, &n) || lines.rest().size() < tail ||
      n != (lines.rest().size() - tail) / 8 || lines.rest().size() - tail != n * 8)
    return fail(error, "its state does not have the size it says");
  c.state.resize(n);
  const std::string_view words = lines.rest();
  for (std::uint64_t i = 0; i < n; ++i)
    for (int b = 0; b < 8; ++b)
      c.state[i] |= std::uint64_t{static_cast<unsigned char>(words[i * 8 + b])} << (8 * b);
  *out = std::move(c);
  return true;
}

bool read_checkpoint(const std::string& path, Checkpoint* out, std::string* error) {
  const std::string name = "checkpoint '" + path + "' ";
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(error, name + "cannot be read: " + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(error, name + "is not a regular file");
  }
  if (static_cast<std::uint64_t>(st.st_size) > Checkpoint::kMaxBytes) {
    close(fd);
    return fail(error, name + "is larger than a checkpoint can be (1 GiB): not a checkpoint");
  }
  std::string bytes;
  read_fd_text(fd, &bytes, 0, Checkpoint::kMaxBytes);  // what could be read: decoding checks it
  close(fd);
  std::string why;
  if (!decode_checkpoint(bytes, out, &why))
    return fail(error, name + "is refused: " + why + " (remove it to start the search over)");
  return true;
}

bool write_checkpoint(const std::string& path, const Checkpoint& c, std::string* error) {
  const std::string bytes = encode_checkpoint(c);
  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return fail(error, "cannot write checkpoint '" + tmp + "': " + std::strerror(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
  const bool ok = done == bytes.size() && fsync(fd) == 0;
  const int saved = errno;
  close(fd);
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = ok ? errno : saved;
    unlink(tmp.c_str());
    return fail(error, "cannot write checkpoint '" + path + "': " + std::strerror(e));
  }
  // The rename lasts a crash of the machine only once the directory is synced too.
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  if (const int d = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    fsync(d);
    close(d);
  }
  return true;
}

std::string encode_checkpoint_options(
    const std::vector<std::pair<std::string, std::string>>& options) {
  std::string s;
  for (const auto& [name, value] : options) s += name + " " + escape_line(value) + "\n";
  return s;
}

bool decode_checkpoint_options(std::string_view text,
                               std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    if (eol == std::string_view::npos) return false;
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol + 1);
    const std::size_t space = line.find(' ');
    std::string value;
    if (space == std::string_view::npos || space == 0 ||
        !unescape_line(line.substr(space + 1), &value))
      return false;
    out->emplace_back(std::string(line.substr(0, space)), value);
  }
  return true;
}

std::string checkpoint_mismatch(const std::string& path, const Checkpoint& saved,
                                std::uint64_t fingerprint,
                                const std::vector<std::pair<std::string, std::string>>& options) {
  const std::string tail = ": run the same command to resume it, or remove the file to start over";
  if (saved.fingerprint != fingerprint)
    return "checkpoint '" + path + "' was saved for another program" + tail;
  for (const auto& [name, value] : options) {
    std::string was = "(not set)";
    for (const auto& [n, v] : saved.options)
      if (n == name) was = v;
    if (was != value)
      return "checkpoint '" + path + "' was saved with " + name + " " + (was.empty() ? "''" : was) +
             ", this run has " + name + " " + (value.empty() ? "''" : value) + tail;
  }
  if (saved.options.size() != options.size())
    return "checkpoint '" + path + "' was saved with other options" + tail;
  return "";
}

}  // namespace weft
