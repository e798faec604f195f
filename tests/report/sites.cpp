#include "sites.hpp"

#include <dlfcn.h>

#include <algorithm>

#define SITE_NOINLINE __attribute__((noinline))

namespace weft_test {

SITE_NOINLINE std::uintptr_t return_address() {
  return reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
}

// Used after each call so that the call is not a tail call: its return address must lie in
// the caller.
SITE_NOINLINE void keep(std::uintptr_t v) { asm volatile("" : : "r"(v) : "memory"); }

namespace {

[[gnu::always_inline]] inline std::uintptr_t inlined_hidden(int* line) {
  *line = __LINE__; return return_address();
}

SITE_NOINLINE Site hidden() {
  std::uintptr_t pc = return_address(); const int line = __LINE__;
  keep(pc);
  return {pc, line, 0};
}

}  // namespace

SITE_NOINLINE Site named_site(int x) {
  std::uintptr_t pc = return_address(); const int line = __LINE__;
  keep(pc + x);
  return {pc, line, 0};
}

SITE_NOINLINE Site other_site() {
  std::uintptr_t pc = return_address(); const int line = __LINE__;
  keep(pc);
  return {pc, line, 0};
}

[[gnu::always_inline]] inline std::uintptr_t inlined_helper(int* line) {
  *line = __LINE__; return return_address();
}

SITE_NOINLINE Site inlined_site() {
  int inner = 0;
  std::uintptr_t pc = inlined_helper(&inner); const int line = __LINE__;
  keep(pc);
  return {pc, line, inner};
}

Site anonymous_site() { return hidden(); }

SITE_NOINLINE Site anonymous_inlined_site() {
  int inner = 0;
  std::uintptr_t pc = inlined_hidden(&inner); const int line = __LINE__;
  keep(pc);
  return {pc, line, inner};
}

SITE_NOINLINE void capture(std::uintptr_t& slot) {
  slot = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  keep(slot);
}

SITE_NOINLINE Site header_site() {
  std::uintptr_t slot[1] = {0};
  std::for_each(slot, slot + 1, capture); const int line = __LINE__;
  keep(slot[0]);
  return {slot[0], line, 0};
}

SITE_NOINLINE Site lambda_site() {
  int line = 0;
  auto body = [&line]() __attribute__((always_inline)) {
    std::uintptr_t pc = return_address(); line = __LINE__;
    return pc;
  };
  std::uintptr_t pc = body();
  keep(pc);
  return {pc, line, 0};
}

std::uintptr_t libc_pc() {
  // Inside puts, well past its first instruction: pc - 1 must still be in puts. libc's
  // own, not the first definition (a sanitizer's interceptor, in the test-asan build).
  void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  return reinterpret_cast<std::uintptr_t>(dlsym(libc, "puts")) + 16;
}

const char* sites_file() { return __FILE__; }

}  // namespace weft_test

extern "C" SITE_NOINLINE void c_site(weft_test::Site* out) {
  std::uintptr_t pc = weft_test::return_address(); const int line = __LINE__;
  weft_test::keep(pc);
  *out = {pc, line, 0};
}
