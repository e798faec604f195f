#include "detect/bug_slot.hpp"

namespace weft::detect {

void copy_text(char* dst, std::size_t cap, const char* src, std::size_t len) {
  std::size_t i = 0;
  for (; src != nullptr && i + 1 < cap && i < len && src[i] != '\0'; ++i) dst[i] = src[i];
  dst[i] = '\0';
}

void append_text(char* dst, std::size_t cap, const char* src) {
  std::size_t n = 0;
  while (n < cap && dst[n] != '\0') ++n;
  if (n < cap) copy_text(dst + n, cap - n, src);
}

void append_hex(char* dst, std::size_t cap, std::uintptr_t v) {
  char buf[2 + 16 + 1];
  char* p = buf + sizeof buf - 1;
  *p = '\0';
  do {
    *--p = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v != 0);
  *--p = 'x';
  *--p = '0';
  append_text(dst, cap, p);
}

void append_dec(char* dst, std::size_t cap, std::uint64_t v) {
  char buf[21];
  char* p = buf + sizeof buf - 1;
  *p = '\0';
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  append_text(dst, cap, p);
}

}  // namespace weft::detect
