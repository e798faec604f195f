#pragma once
// The program's functions and variables by name, for strategies a user points at code
// or data (best-first search's method= and var= priorities). The explorer provides it
// from the program's symbol tables; strategies see address ranges only.
#include <cstdint>
#include <string_view>
#include <vector>

namespace weft {

struct AddressRange {
  std::uintptr_t begin = 0, end = 0;  // [begin, end)
  bool contains(std::uintptr_t a) const { return a >= begin && a < end; }
};

inline bool in_ranges(const std::vector<AddressRange>& ranges, std::uintptr_t a) {
  for (const AddressRange& r : ranges)
    if (r.contains(a)) return true;
  return false;
}

class ProgramSymbols {
 public:
  virtual ~ProgramSymbols() = default;
  // The code of the functions a name or glob names (demangled, without parameters:
  // "Queue::push", "lib::*"); empty when none.
  virtual std::vector<AddressRange> functions(std::string_view name) = 0;
  // The bytes of the global or static variables a name or glob names; empty when none.
  virtual std::vector<AddressRange> variables(std::string_view name) = 0;
};

}  // namespace weft
