#pragma once
// How an operation and its object are written in reports (text and JSON alike).
#include <cstdint>
#include <string>

#include "core/event.hpp"

namespace weft {

std::string hex_address(std::uintptr_t address);  // "0x7ffd5c2a1b30"
std::string thread_name(ThreadId thread);          // "T3"; "-" for kNoThread
// The op's printed name with what the step's flags add: "mutex-trylock (failed)".
std::string op_text(const Event& event);

}  // namespace weft
