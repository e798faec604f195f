// What test frameworks need from the runtime (include/weft/gtest.hpp, weft/environment.hpp):
// a failed check of theirs inside an explored body reported as a weft bug, and a strategy
// spec checked before any exploration starts.
#include <string>

#include "runtime/controller.hpp"
#include "strategy/registry.hpp"
#include "weft/weft.hpp"

namespace weft {

std::string check_strategy(const std::string& spec) {
  std::string error;
  if (!make_strategy(spec, 0, &error, {.syntax_only = true}))
    return error.empty() ? "not a strategy" : error;
  return "";
}

namespace detail {

void check_failed(const std::string& message, const char* file, int line) {
  if (rt::ThreadState* self = rt::controlled_thread()) {
    rt::RuntimeScope scope(self);
    rt::BugReport bug;
    bug.kind = BugKind::kAssertion;
    bug.message = message;
    bug.thread = self->id;
    // No pc: the caller is the framework's reporting code, never the check's line.
    bug.pc = 0;
    bug.file = file != nullptr ? file : "";
    bug.line = line;
    rt::Controller::active()->fail(bug);
  }
}

}  // namespace detail
}  // namespace weft
