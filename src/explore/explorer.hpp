#pragma once
// The Explorer: runs executions of a test body until a bug, the budget or the end of the
// strategy's space. The whole exploration runs in a forked child process (the in-process
// executor): a crash, a deadlock or a hang of the program under test ends the child, never
// the test runner, and the failing schedule survives in shared memory.
#include <cstdint>
#include <functional>

#include "core/run_record.hpp"
#include "core/schedule.hpp"
#include "weft/weft.hpp"

namespace weft::explorer {

// Explores `body` under options.strategy; with `replay`, runs exactly that schedule once;
// `guided` (with `replay`), once along it as far as the program follows it, then on with
// the default choice (a minimisation's candidate, in_process_minimizer.hpp).
RunRecord run_in_process(const std::function<void()>& body, std::uint64_t fingerprint,
                         const Options& options, const Schedule* replay, bool guided = false);

// A one-line error for options out of range ("" when valid).
std::string validate(const Options& options);

}  // namespace weft::explorer
