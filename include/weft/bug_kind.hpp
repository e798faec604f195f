#pragma once
#include <string_view>

namespace weft {

// The kinds of bug weft reports. The printed names are a contract (JSON `kind`).
enum class BugKind : int {
  kAssertion,          // WEFT_ASSERT or assert() failed
  kCrash,              // SIGSEGV, SIGBUS, SIGFPE, SIGILL, abort(), std::terminate
  kDeadlock,           // no enabled thread while some have not finished
  kLivelock,           // an execution exceeded the step bound
  kUncaughtException,  // an exception escaped a thread
  kExitCode,           // a whole program exited non-zero (weft run)
  kHang,               // a thread blocked outside weft's control, or a timeout
  kDataRace,           // two unordered conflicting accesses
  kWrongOutput,        // --check-output: the output differs from the serial execution's
  kApiMisuse,          // a threading call on an object whose state makes it undefined
  kUseAfterFree,       // an access to, or a second free of, a freed heap block
  kInvalidFree,        // a free of a pointer no allocation returned (no block to name)
};

constexpr std::string_view bug_kind_name(BugKind k) {
  switch (k) {
    case BugKind::kAssertion: return "assertion";
    case BugKind::kCrash: return "crash";
    case BugKind::kDeadlock: return "deadlock";
    case BugKind::kLivelock: return "livelock";
    case BugKind::kUncaughtException: return "uncaught-exception";
    case BugKind::kExitCode: return "exit-code";
    case BugKind::kHang: return "hang";
    case BugKind::kDataRace: return "data-race";
    case BugKind::kWrongOutput: return "wrong-output";
    case BugKind::kApiMisuse: return "api-misuse";
    case BugKind::kUseAfterFree: return "use-after-free";
    case BugKind::kInvalidFree: return "invalid-free";
  }
  return "unknown";
}

}  // namespace weft
