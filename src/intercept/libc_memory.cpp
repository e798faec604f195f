// memcpy, memmove and memset: clang emits plain calls to them for struct copies in
// instrumented code, and libstdc++ uses them; each is a read and/or a write of a range.
// The real ones are reached through glibc's checked variants, which need no dlsym (these
// run before any constructor, and dlsym itself copies memory).
// munmap, mremap and shmdt: memory the program's last plain write may be in goes away,
// so that write's value is read first (Controller::before_unmap).
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include <cstddef>
#include <cstring>

#include "intercept/real.hpp"
#include "runtime/access_policy.hpp"

using namespace weft;
using namespace weft::intercept;

extern "C" void* __memcpy_chk(void* dst, const void* src, std::size_t n, std::size_t dstlen);
extern "C" void* __memmove_chk(void* dst, const void* src, std::size_t n, std::size_t dstlen);
extern "C" void* __memset_chk(void* dst, int c, std::size_t n, std::size_t dstlen);

WEFT_DEFINE_REAL(munmap)
WEFT_DEFINE_REAL(mremap)
WEFT_DEFINE_REAL(shmdt)

namespace {

void before_unmap() {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().before_unmap();
  }
}

__attribute__((noinline)) void range(ThreadState* self, const void* src, void* dst, std::size_t n,
                                     std::uintptr_t pc) {
  if (n == 0) return;
  Controller& c = ctl();
  RuntimeScope scope(self);
  const auto size = static_cast<std::uint16_t>(n > 0xffff ? 0xffff : n);
  if (src != nullptr) c.memory_access(self, make_op(OpKind::Read, addr(src), pc, size), n);
  c.memory_access(self, make_op(OpKind::Write, addr(dst), pc, size), n);
}

}  // namespace

extern "C" {

int munmap(void* address, std::size_t length) noexcept {
  before_unmap();
  return real_munmap()(address, length);
}

void* mremap(void* old_address, std::size_t old_size, std::size_t new_size, int flags,
             ...) noexcept {
  void* new_address = nullptr;
  if (flags & MREMAP_FIXED) {
    va_list args;
    va_start(args, flags);
    new_address = va_arg(args, void*);
    va_end(args);
  }
  before_unmap();
  return real_mremap()(old_address, old_size, new_size, flags, new_address);
}

int shmdt(const void* address) noexcept {
  before_unmap();
  return real_shmdt()(address);
}

void* memcpy(void* dst, const void* src, std::size_t n) noexcept {
  if (ThreadState* self = rt::controlled_thread()) range(self, src, dst, n, WEFT_RAW_PC);
  return __memcpy_chk(dst, src, n, static_cast<std::size_t>(-1));
}

void* memmove(void* dst, const void* src, std::size_t n) noexcept {
  if (ThreadState* self = rt::controlled_thread()) range(self, src, dst, n, WEFT_RAW_PC);
  return __memmove_chk(dst, src, n, static_cast<std::size_t>(-1));
}

void* memset(void* dst, int c, std::size_t n) noexcept {
  if (ThreadState* self = rt::controlled_thread()) range(self, nullptr, dst, n, WEFT_RAW_PC);
  return __memset_chk(dst, c, n, static_cast<std::size_t>(-1));
}

// Newer compilers call these directly from instrumented code.
void* __tsan_memcpy(void* dst, const void* src, std::size_t n) { return memcpy(dst, src, n); }
void* __tsan_memmove(void* dst, const void* src, std::size_t n) { return memmove(dst, src, n); }
void* __tsan_memset(void* dst, int c, std::size_t n) { return memset(dst, c, n); }

}  // extern "C"
