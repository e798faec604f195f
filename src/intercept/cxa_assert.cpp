// C++ thread_local destructors and assert(): both need to stay under weft's control.
#include <assert.h>

#include <string>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

extern "C" int __cxa_thread_atexit_impl(void (*dtor)(void*), void* obj, void* dso_symbol);
// Declared by <assert.h> only without NDEBUG.
extern "C" void __assert_fail(const char* expr, const char* file, unsigned int line,
                              const char* function) noexcept __attribute__((noreturn));
WEFT_DEFINE_REAL(__cxa_thread_atexit_impl)
WEFT_DEFINE_REAL(__assert_fail)

extern "C" {

// Destructors of a controlled thread's thread_locals run when weft finishes the thread,
// while it is still scheduled, since they may touch shared state.
int __cxa_thread_atexit_impl(void (*dtor)(void*), void* obj, void* dso_symbol) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    self->tls_dtors.emplace_back(dtor, obj);
    return 0;
  }
  return real___cxa_thread_atexit_impl()(dtor, obj, dso_symbol);
}

void __assert_fail(const char* expr, const char* file, unsigned int line,
                   const char* function) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    std::string msg = std::string("assert(") + expr + ") failed";
    rt::BugReport bug;
    bug.kind = BugKind::kAssertion;
    bug.message = msg;
    bug.thread = self->id;
    bug.pc = WEFT_PC;
    bug.file = file;
    bug.line = static_cast<int>(line);
    ctl().fail(bug);
  }
  real___assert_fail()(expr, file, line, function);
  __builtin_unreachable();
}

}  // extern "C"
