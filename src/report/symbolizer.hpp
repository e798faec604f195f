#pragma once
// Code address -> function, source file and line, for the current process (elfutils
// libdw). Reports are formatted in the process image that recorded the addresses (the
// explorer's forked parent or child: identical mappings), so addresses are absolute.
//
// Lazy and cached: nothing is read until the first lookup (libdw itself is loaded then,
// symbolizer_backend.hpp), each address is looked up once, each source file is read once.
// Never on a hot path. Thread-safe; returned references live as long as the Symbolizer.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "report/symbolizer_backend.hpp"

namespace weft {

class Symbolizer {
 public:
  Symbolizer();
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The source frames at a return address (it points after the call, so pc - 1 is looked
  // up), innermost first: functions inlined at that point, then the function that contains
  // them. Empty when the address is unknown (0, unmapped, no symbols).
  const std::vector<Frame>& frames(std::uintptr_t return_address);
  // The same for the exact address of an instruction (a faulting pc).
  const std::vector<Frame>& frames_at(std::uintptr_t address);
  // The innermost frame at a return address; all fields empty when unknown.
  Frame symbolize(std::uintptr_t return_address);

  // The global or static variable holding `address` from the modules' symbol tables
  // ("counter", "table+8"); "" when none (heap, stack, unknown).
  std::string variable(std::uintptr_t address);
  // The local variable of a live frame holding `address`, with the member and element
  // path ("w.stop_", "slots[2]"); "" when none is known. The frame: a return address in
  // its function (`pc`, tried first), the return address of its __tsan_func_entry call
  // (`entry`), and its canonical frame address `cfa` (FrameNote).
  std::string local_variable(std::uintptr_t address, std::uintptr_t pc, std::uintptr_t entry,
                             std::uintptr_t cfa);
  // The pointer and reference locals of such a frame, with the addresses they held as
  // `read` finds them in its memory; pointee_path() names what lies at `offset` in the
  // object one points to (".count", "[2]", "" at its start, "+3" inside no member).
  std::vector<PointerLocal> pointer_locals(std::uintptr_t pc, std::uintptr_t entry,
                                           std::uintptr_t cfa, const WordReader& read);
  std::string pointee_path(std::size_t pointee, std::uint64_t offset);
  // When `address` is exactly a global pointer or reference (or such a member of one):
  // the handle of the type it points to, for pointee_path(); 0 otherwise. *reference: a
  // reference, whose object goes by its name.
  std::size_t global_pointee(std::uintptr_t address, bool* reference);

  // Line `line` (1-based) of `file` without its indentation and line end; "" when the file
  // is unreadable or too short.
  const std::string& source_line(const std::string& file, int line);

  // The code a pattern names, as [begin, end) address ranges, sorted and merged: a whole
  // shared object or executable (its file name: "libfoo.so*", "libfoo.so.1"), the compile
  // units of a source file (its name or a path suffix: "queue.cpp", "src/queue.cpp"), or
  // functions (demangled name without parameters: "Queue::push", "lib::*"). Patterns are
  // shell globs (fnmatch). matched[i] says whether patterns[i] named anything.
  using CodeRange = weft::CodeRange;
  std::vector<CodeRange> find_code(const std::vector<std::string>& patterns,
                                   std::vector<bool>* matched);
  // The global and static variables (symbol-table objects) a glob names, by demangled or
  // raw name, as [begin, end) address ranges; empty when none.
  std::vector<CodeRange> find_variables(const std::string& pattern);

 private:
  // The backend, loaded at the first lookup; nullptr when libweft_symbolizer.so cannot be
  // loaded (then nothing is known, as for a program without symbols).
  SymbolizerBackend* backend();

  std::mutex mutex_;
  bool loaded_ = false;
  std::unique_ptr<SymbolizerBackend> backend_;
  std::unordered_map<std::string, std::vector<std::string>> files_;
};

}  // namespace weft
