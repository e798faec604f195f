#include "explore/result_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>

#include "report/html_report.hpp"
#include "report/json_report.hpp"
#include "report/symbolizer.hpp"
#include "report/trace_events.hpp"

namespace weft::explorer {
namespace {

// "" or why `text` could not be written to `path`. Written under another name and
// renamed: whatever cuts it short (a kill) leaves no `path`.
std::string write_file(const std::string& path, const std::string& text) {
  const std::string part = path + ".part";
  const int fd = open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return std::strerror(errno);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(part.c_str());
      return std::strerror(error);
    }
    done += static_cast<std::size_t>(n);
  }
  if ((close(fd) != 0 && errno != EINTR) || rename(part.c_str(), path.c_str()) != 0) {
    const int error = errno;
    unlink(part.c_str());
    return std::strerror(error);
  }
  return "";
}

}  // namespace

std::string write_result_files(const ResultFiles& where, const RunRecord& run,
                               const std::string& output) {
  Symbolizer symbolizer;
  std::vector<std::pair<const char*, std::function<std::string()>>> files = {
      {"report.txt", [&] { return format_text(run, symbolizer, where.text); }},
      {"output.txt", [&] { return output; }}};
  if (!run.bugs.empty()) {
    files.emplace_back("schedule.txt", [&] { return run.bugs[0].schedule; });
    files.emplace_back("trace.json", [&] { return format_trace_events(run.bugs[0], symbolizer); });
    files.emplace_back("report.html", [&] {
      return format_html(run, symbolizer, {where.program, where.replay_command, output});
    });
  }
  // The run's error alone, so that weft run need not search the JSON text for it.
  if (!run.error.empty()) files.emplace_back("error.txt", [&] { return run.error; });
  files.emplace_back("result.json",
                     [&] { return format_json(run, symbolizer, where.program, where.args); });
  for (const auto& [name, make] : files) {
    const std::string path = where.dir + "/" + name;
    if (std::string why = write_file(path, make()); !why.empty()) {
      unlink((where.dir + "/result.json").c_str());
      return "cannot write the run's result to " + path + ": " + why;
    }
  }
  return "";
}

}  // namespace weft::explorer
