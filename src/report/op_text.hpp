#pragma once
// How an operation and its object are written in reports (text and JSON alike).
#include <cstdint>
#include <string>

#include "core/event.hpp"

namespace weft {

std::string hex_address(std::uintptr_t address);  // "0x7ffd5c2a1b30"
std::string thread_name(ThreadId thread);         // "T3"; "-" for kNoThread
// The op's printed name with what the step's flags add: "mutex-trylock (failed)".
std::string op_text(const Event& event);
// What a memory access found and left, when known: " -> 0" (a read, or a compare-exchange
// that failed: what it read), " = 1" (a write), " 3 -> 4" (a read-modify-write); "" else.
std::string value_text(const Event& event);
// An integer of `size` bytes as a report shows it: small ones in decimal, signed (counts,
// flags, -1), others in hex (pointers, masks).
std::string scalar_text(std::uint64_t value, std::size_t size);

}  // namespace weft
