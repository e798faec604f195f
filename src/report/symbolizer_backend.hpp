#pragma once
// What the Symbolizer asks of elfutils' libdw, behind an interface. Its implementation
// (symbolizer_dw.cpp) is a shared object of its own, libweft_symbolizer.so, which the
// Symbolizer loads at its first lookup: a program under weft then maps libdw, libelf and
// their compression libraries only once a report needs them, not in every execution's
// child (each mapping costs every fork and exit; together they cost about 35 us of an
// execution's 500, measured with a fork loop).
#include <cstdint>
#include <functional>
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

// A pointer (or reference) local of a live frame and what it held when the execution
// ended: a heap block it points at is named after it ("tally->count").
struct PointerLocal {
  std::string name;          // "tally", "this"
  std::uintptr_t value = 0;  // the address it held
  std::size_t pointee = 0;   // the backend's handle of the type it points to (0: unknown)
  bool reference = false;    // a C++ reference: its object is named by its name alone
};

// Reads a word of a frame's memory as the execution left it; false when not kept.
using WordReader = std::function<bool(std::uintptr_t address, std::uintptr_t* value)>;

// As Symbolizer says (symbolizer.hpp). Thread-safe.
class SymbolizerBackend {
 public:
  virtual ~SymbolizerBackend() = default;
  virtual const std::vector<Frame>& frames_at(std::uintptr_t address) = 0;
  virtual std::string variable(std::uintptr_t address) = 0;
  virtual std::string local_variable(std::uintptr_t address, std::uintptr_t pc,
                                     std::uintptr_t entry, std::uintptr_t cfa) = 0;
  virtual std::vector<PointerLocal> pointer_locals(std::uintptr_t pc, std::uintptr_t entry,
                                                   std::uintptr_t cfa, const WordReader& read) = 0;
  virtual std::string pointee_path(std::size_t pointee, std::uint64_t offset) = 0;
  virtual std::size_t global_pointee(std::uintptr_t address, bool* reference) = 0;
  virtual std::vector<CodeRange> find_code(const std::vector<std::string>& patterns,
                                           std::vector<bool>* matched) = 0;
  virtual std::vector<CodeRange> find_variables(const std::string& pattern) = 0;
};

}  // namespace weft

// libweft_symbolizer.so's one entry point (a new backend, owned by the caller).
extern "C" weft::SymbolizerBackend* weft_new_symbolizer_backend();
