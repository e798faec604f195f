#pragma once
// ProgramSymbols read from the process's own modules (the explorer's, before it forks:
// every execution has the same mappings).
#include <string>

#include "core/program_symbols.hpp"
#include "report/symbolizer.hpp"

namespace weft {

class SymbolizerSymbols final : public ProgramSymbols {
 public:
  explicit SymbolizerSymbols(Symbolizer& symbolizer) : symbolizer_(symbolizer) {}
  std::vector<AddressRange> functions(std::string_view name) override {
    std::vector<bool> matched;
    std::vector<AddressRange> out;
    for (const auto& r : symbolizer_.find_code({std::string(name)}, &matched))
      out.push_back({r.begin, r.end});
    return out;
  }
  std::vector<AddressRange> variables(std::string_view name) override {
    std::vector<AddressRange> out;
    for (const auto& r : symbolizer_.find_variables(std::string(name)))
      out.push_back({r.begin, r.end});
    return out;
  }

 private:
  Symbolizer& symbolizer_;
};

}  // namespace weft
