#pragma once
// Reading a file or a descriptor whole, once for every part of weft that does.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace weft {

// `fd`'s bytes from offset `at` to its end, at most `limit`, appended to *out, with pread:
// the descriptor's own offset stays where it was. false: a read failed (errno says why).
bool read_fd_text(int fd, std::string* out, off_t at = 0, std::size_t limit = SIZE_MAX);

// The whole file at `path` into *out. false: it cannot be opened or read (errno says why).
bool read_file_text(const std::string& path, std::string* out);

}  // namespace weft
