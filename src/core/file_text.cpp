#include "core/file_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace weft {

bool read_fd_text(int fd, std::string* out, off_t at, std::size_t limit) {
  // The size, when the descriptor knows it, read in one go; else (a pipe) in blocks.
  struct stat st;
  std::size_t block = 1 << 16;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > at)
    block = std::max<std::size_t>(block, static_cast<std::size_t>(st.st_size - at) + 1);
  for (std::size_t done = 0; done < limit;) {
    const std::size_t want = std::min(block, limit - done);
    const std::size_t size = out->size();
    out->resize(size + want);
    const ssize_t n = pread(fd, out->data() + size, want, at);
    out->resize(size + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
    at += n;
  }
  return true;
}

bool read_file_text(const std::string& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  const bool ok = read_fd_text(fd, out);
  const int error = errno;
  close(fd);
  errno = error;
  return ok;
}

}  // namespace weft
