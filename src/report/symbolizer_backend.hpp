#pragma once
// What the Symbolizer asks of elfutils' libdw, behind an interface. Its implementation
// (symbolizer_dw.cpp) is a shared object of its own, libweft_symbolizer.so, which the
// Symbolizer loads at its first lookup: a program under weft then maps libdw, libelf and
// their compression libraries only once a report needs them, not in every execution's
// child (each mapping costs every fork and exit; together they cost about 35 us of an
// execution's 500, measured with a fork loop).
#include <cstdint>
#include <string>
#include <vector>

namespace weft {

// One source-level frame. Every field may be empty: unknown stays unknown, never a guess.
struct Frame {
  std::string function;  // demangled ("ns::worker(int)"); "" when unknown
  std::string file;      // as the debug info records it, usually absolute; "" when unknown
  int line = 0;          // 0 when unknown
  std::string module;    // basename of the executable or shared object ("libc.so.6")

  bool known() const { return !function.empty() || !file.empty(); }
};

// [begin, end) addresses of code or data.
struct CodeRange {
  std::uintptr_t begin, end;
};

// As Symbolizer says (symbolizer.hpp). Thread-safe.
class SymbolizerBackend {
 public:
  virtual ~SymbolizerBackend() = default;
  virtual const std::vector<Frame>& frames_at(std::uintptr_t address) = 0;
  virtual std::string variable(std::uintptr_t address) = 0;
  virtual std::string local_variable(std::uintptr_t address, std::uintptr_t pc,
                                     std::uintptr_t entry, std::uintptr_t cfa) = 0;
  virtual std::vector<CodeRange> find_code(const std::vector<std::string>& patterns,
                                           std::vector<bool>* matched) = 0;
  virtual std::vector<CodeRange> find_variables(const std::string& pattern) = 0;
};

}  // namespace weft

// libweft_symbolizer.so's one entry point (a new backend, owned by the caller).
extern "C" weft::SymbolizerBackend* weft_new_symbolizer_backend();
