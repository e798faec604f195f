// C++ thread_local destructors, pthread keys and assert(): all need to stay under weft's
// control.
#include <assert.h>

#include <string>

#include "detect/crash_handler.hpp"
#include "intercept/real.hpp"
#include "runtime/key_registry.hpp"

using namespace weft;
using namespace weft::intercept;

extern "C" int __cxa_thread_atexit_impl(void (*dtor)(void*), void* obj, void* dso_symbol);
// Declared by <assert.h> only without NDEBUG.
extern "C" void __assert_fail(const char* expr, const char* file, unsigned int line,
                              const char* function) noexcept __attribute__((noreturn));
// Declared here rather than by <cxxabi.h>, whose declaration sits in another namespace.
extern "C" void __cxa_throw(void* object, void* type, void (*destroy)(void*))
    __attribute__((noreturn));
WEFT_DEFINE_REAL(__cxa_thread_atexit_impl)
WEFT_DEFINE_REAL(__cxa_throw)
WEFT_DEFINE_REAL(__assert_fail)

extern "C" {

// Where a controlled thread throws, for the report should the exception escape it.
void __cxa_throw(void* object, void* type, void (*destroy)(void*)) {
  if (rt::controlled_thread() != nullptr) detect::note_throw(WEFT_PC, object);
  real___cxa_throw()(object, type, destroy);
  __builtin_unreachable();
}

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

// pthread keys: tracked so that weft can run their destructors under control.
WEFT_DEFINE_REAL(pthread_key_create)
WEFT_DEFINE_REAL(pthread_key_delete)

extern "C" {

int pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) noexcept {
  int rc = real_pthread_key_create()(key, destructor);
  if (rc == 0) rt::note_key(*key, destructor);
  return rc;
}

int pthread_key_delete(pthread_key_t key) noexcept {
  rt::forget_key(key);
  return real_pthread_key_delete()(key);
}

}  // extern "C"
