#pragma once
// Which source frame a report shows for an operation or a bug. An op's pc is often inside
// a libstdc++ header (std::mutex::lock inlined) or inside libstdc++.so/libc itself; the
// user wants the line of their own code that led there.
#include <cstdint>
#include <span>

#include "core/event.hpp"
#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

// False for frames in system headers (/usr/include, /usr/lib), in the C/C++ runtime
// libraries (libc, libstdc++, libgcc_s, the dynamic loader, sanitizer runtimes) or in weft
// itself (libweft, or weft's src/ when linked statically), and for frames without a
// source file.
bool is_user_frame(const Frame& frame);

// The first user frame among the inline chains of `return_addresses` (innermost first,
// 0 = unknown, skipped); else the first frame that symbolizes at all; else an empty frame.
Frame choose_location(std::span<const std::uintptr_t> return_addresses, Symbolizer& symbolizer);

// For one step: {op.pc, callers[0..2]}.
Frame choose_location(const Event& event, Symbolizer& symbolizer);
// Where a heap block was allocated: {pc, callers[0..2]}.
Frame choose_location(const Allocation& block, Symbolizer& symbolizer);
// For one return address (no callers known).
Frame choose_location(std::uintptr_t return_address, Symbolizer& symbolizer);
// For one pending operation (no callers known).
Frame choose_location(const Op& op, Symbolizer& symbolizer);

// Where a bug happened: its source file and line when the bug names them (assertions),
// else its pc, else for data races and livelocks the failing thread's last step. Empty
// when nothing is known. bug.pc is read as a return address (pc - 1 is looked up), as
// detect/ records it: a faulting instruction's address is recorded plus one.
Frame bug_location(const BugRecord& bug, Symbolizer& symbolizer);

// " (at file:line in function)" for a pc in the program, "" when 0 or unknown: appended to
// a one-line message that names no place of its own.
std::string where_suffix(std::uintptr_t pc, Symbolizer& symbolizer);

}  // namespace weft
