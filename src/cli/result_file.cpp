#include "cli/result_file.hpp"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/file_text.hpp"
#include "cli/output_file.hpp"

namespace weft::cli {

ResultFile::ResultFile(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}

ResultFile::~ResultFile() {
  if (fd_ >= 0) close(fd_);
}

ResultFile::ResultFile(ResultFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      replaced_(other.replaced_),
      text_(std::move(other.text_)) {}

ResultFile& ResultFile::operator=(ResultFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    replaced_ = other.replaced_;
    text_ = std::move(other.text_);
  }
  return *this;
}

std::string ResultFile::text() const {
  if (replaced_ || fd_ < 0) return text_;
  std::string text;
  read_fd_text(fd_, &text);
  return text;
}

void ResultFile::replace(std::string text) {
  replaced_ = true;
  text_ = std::move(text);
}

std::string ResultFile::copy_to(const std::string& path, const std::string& what) const {
  if (replaced_ || fd_ < 0) return write_output(path, what, text_);
  auto failed = [&](int error) {
    return "cannot write " + what + " to " + path + ": " + std::strerror(error);
  };
  int out;
  while ((out = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 &&
         errno == EINTR) {
  }
  if (out < 0) return failed(errno);
  off_t at = 0;
  for (;;) {
    const ssize_t n = sendfile(out, fd_, &at, std::size_t{1} << 30);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {  // a file sendfile cannot write
      close(out);
      return write_output(path, what, text());
    }
    if (n < 0) {
      const int error = errno;
      close(out);
      return failed(error);
    }
    if (n == 0) break;
  }
  if (close(out) != 0 && errno != EINTR) return failed(errno);
  return "";
}

}  // namespace weft::cli
