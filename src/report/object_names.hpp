#pragma once
// What reports call the threads and objects of one bug's execution: threads by the names
// the program gave them (pthread_setname_np), globals by their symbol ("counter",
// "table+8"), heap blocks by a pointer local that held them at the end ("tally->count"),
// else by the order they were allocated in ("heap#2", "heap#2+16"), each block described
// once with where it was allocated, a thread's locals by the
// variable and member the debug information places there ("w.stop_"), else by the order
// the steps first touch them ("stack#1 (T0)": one of T0's locals, shared by reference).
// An address only when nothing better is known.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

class ObjectNames {
 public:
  ObjectNames(const BugRecord& bug, Symbolizer& symbolizer);

  // "T1", or "T1 (worker)" when the program named it.
  std::string thread(ThreadId thread) const;
  // The program's name for the thread, "" when unnamed.
  std::string thread_given_name(ThreadId thread) const;
  // An operation's object at step `step` (0-based; the default: after the last), as
  // address() names memory; a thread for create/join/detach, "fd N" for a descriptor wait;
  // "" when it has none.
  std::string object(const Op& op, std::size_t step = kEnd) const;
  // "counter", "table+8", "heap#2+16" (the block that held it at `step`: memory freed and
  // allocated again is another block), "stack#1 (T0)", else "0x7f..".
  std::string address(std::uintptr_t address, std::size_t step = kEnd) const;
  static constexpr std::size_t kEnd = ~std::size_t{0};

  // The heap blocks the execution's steps touched, in allocation order: heap_block_name(i)
  // names bug.allocations[i].
  const std::vector<Allocation>& heap_blocks() const { return bug_.allocations; }
  static std::string heap_block_name(std::size_t index) {
    return "heap#" + std::to_string(index + 1);
  }
  // The block as the lists show it: "*tally (heap#1)" when a pointer names it, else "heap#1".
  std::string heap_block_label(std::size_t index) const;

 private:
  // The debug information's name for a local of `thread` ("w.stop_"), "" when unknown.
  std::string local_name(std::uintptr_t address, ThreadId thread) const;
  void name_heap_blocks();
  // The newest block starting at `start` allocated by `step` (kEnd: none).
  std::size_t newest_block(std::uintptr_t start, std::size_t step) const;
  // Names heap block `block` after the global pointer or reference at `global`, when that
  // is one and the block has no name yet.
  void name_after_global(std::size_t block, std::uintptr_t global);
  // What lies at `offset` in heap block `block`, after the pointer that names it.
  std::string pointed_name(std::size_t block, std::uintptr_t offset) const;

  const BugRecord& bug_;
  Symbolizer& sym_;
  mutable std::unordered_map<std::uintptr_t, std::string> globals_;  // looked up once each
  std::unordered_map<std::uintptr_t, std::string> locals_;  // addresses on a thread's stack
  std::vector<PointerLocal> pointers_;  // per heap block: the pointer naming it (name "": none)
  // pointed_name() by block and offset, looked up once each.
  mutable std::map<std::pair<std::size_t, std::uintptr_t>, std::string> pointed_;
  // Per address asked about: the heap blocks holding it, in allocation order.
  mutable std::unordered_map<std::uintptr_t, std::vector<std::size_t>> blocks_;
};

}  // namespace weft
