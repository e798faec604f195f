#include "report/object_names.hpp"

#include "report/op_text.hpp"

namespace weft {

ObjectNames::ObjectNames(const BugRecord& bug, Symbolizer& symbolizer)
    : bug_(bug), sym_(symbolizer) {}

std::string ObjectNames::thread_given_name(ThreadId thread) const {
  return thread < bug_.thread_names.size() ? bug_.thread_names[thread] : std::string();
}

std::string ObjectNames::thread(ThreadId thread) const {
  const std::string given = thread_given_name(thread);
  return given.empty() ? thread_name(thread) : thread_name(thread) + " (" + given + ")";
}

std::string ObjectNames::object(const Op& op) const {
  if (targets_thread(op.kind)) return thread(op.aux);
  if (op.object == 0) return {};
  if (op.kind == OpKind::FdWait) return "fd " + std::to_string(op.object - 1);
  return address(op.object);
}

std::string ObjectNames::address(std::uintptr_t address) const {
  // The newest block holding it (touched_by keeps, per address, the block it was in).
  for (std::size_t i = bug_.allocations.size(); i-- > 0;) {
    const Allocation& a = bug_.allocations[i];
    if (address >= a.address && address - a.address < a.size) {
      const std::uintptr_t offset = address - a.address;
      return heap_block_name(i) + (offset == 0 ? "" : "+" + std::to_string(offset));
    }
  }
  auto [it, fresh] = globals_.try_emplace(address);
  if (fresh) {
    it->second = sym_.variable(address);
    if (it->second.empty()) it->second = hex_address(address);
  }
  return it->second;
}

}  // namespace weft
