#include "cli/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace weft::cli {

std::string write_output(const std::string& path, const std::string& what,
                         const std::string& text) {
  auto failed = [&](int error) {
    return "cannot write " + what + " to " + path + ": " + std::strerror(error);
  };
  int fd;
  while ((fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 &&
         errno == EINTR) {
  }
  if (fd < 0) return failed(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // 0: nothing written and no error given, a device that takes no more
      const int error = n < 0 ? errno : ENOSPC;
      close(fd);
      return failed(error);
    }
    done += static_cast<std::size_t>(n);
  }
  // Some file systems (NFS, a full quota) report a failed write only at close.
  if (close(fd) != 0 && errno != EINTR) return failed(errno);
  return "";
}

std::string touch_output(const std::string& path, const std::string& what) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0 || close(fd) != 0)
    return "cannot write " + what + " to " + path + ": " + std::strerror(errno);
  return "";
}

}  // namespace weft::cli
