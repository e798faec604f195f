#include "report/object_names.hpp"

#include <cstring>

#include "report/op_text.hpp"

namespace weft {

ObjectNames::ObjectNames(const BugRecord& bug, Symbolizer& symbolizer)
    : bug_(bug), sym_(symbolizer) {
  // Locals by the variable the debug information places there in a frame the thread was
  // in when the execution ended; else numbered per thread in the order the steps first
  // touch them. A name two threads' locals share says whose.
  std::vector<int> count(bug.thread_stacks.size(), 0);
  std::unordered_map<std::string, int> uses;
  std::vector<std::pair<std::uintptr_t, ThreadId>> named;
  auto note = [&](const Op& op) {
    if (!addresses_memory(op)) return;
    for (ThreadId t = 0; t < bug.thread_stacks.size(); ++t)
      if (bug.thread_stacks[t].contains(op.object)) {
        if (locals_.contains(op.object)) return;
        std::string name = local_name(op.object, t);
        if (name.empty()) {
          name = "stack#" + std::to_string(++count[t]) + " (" + thread_name(t) + ")";
        } else {
          ++uses[name];
          named.emplace_back(op.object, t);
        }
        locals_[op.object] = std::move(name);
        return;
      }
  };
  for (const Event& e : bug.events) note(e.op);
  for (const BlockedThread& b : bug.blocked) note(b.op);
  if (bug.has_race) note(make_op(OpKind::Read, bug.race.address, 0));
  for (const auto& [address, t] : named)
    if (uses[locals_[address]] > 1) locals_[address] += " (" + thread_name(t) + ")";
  name_heap_blocks();
}

// A heap block a pointer local of a live frame pointed at when the execution ended is
// named after it ("tally", its members "tally->count"): the innermost frame's first;
// else a global pointer that held it then, or that a step stored its address in.
void ObjectNames::name_heap_blocks() {
  pointers_.assign(bug_.allocations.size(), PointerLocal{});
  if (bug_.allocations.empty()) return;
  auto read = [&](const FrameNote& f, std::uintptr_t address, std::uintptr_t* value) {
    const std::uintptr_t lowest = f.cfa - f.memory_size;
    if (address < lowest || address + sizeof *value > f.cfa ||
        f.memory_at + f.memory_size > bug_.frame_memory.size())
      return false;
    std::memcpy(value, bug_.frame_memory.data() + f.memory_at + (address - lowest), sizeof *value);
    return true;
  };
  for (const std::vector<FrameNote>& frames : bug_.thread_frames)
    for (const FrameNote& f : frames) {
      if (f.cfa == 0 || f.memory_size == 0) continue;
      const WordReader reader = [&](std::uintptr_t a, std::uintptr_t* v) { return read(f, a, v); };
      for (PointerLocal& p : sym_.pointer_locals(f.pc, f.entry, f.cfa, reader)) {
        const std::size_t i = newest_block(p.value, kEnd);
        if (i < pointers_.size() && pointers_[i].name.empty()) pointers_[i] = std::move(p);
      }
    }
  for (const GlobalPointer& g : bug_.global_pointers)
    name_after_global(newest_block(g.block, kEnd), g.global);
  // g_registry = new Registry, a step: its value is the block's address.
  for (std::size_t step = 0; step < bug_.events.size(); ++step) {
    const Event& e = bug_.events[step];
    if ((e.values & kValueAfter) != 0 && e.op.size == sizeof(std::uintptr_t) && e.after != 0)
      name_after_global(newest_block(e.after, step), e.op.object);
  }
}

std::size_t ObjectNames::newest_block(std::uintptr_t start, std::size_t step) const {
  for (std::size_t i = bug_.allocations.size(); i-- > 0;)
    if (bug_.allocations[i].address == start && bug_.allocations[i].step <= step) return i;
  return kEnd;
}

void ObjectNames::name_after_global(std::size_t block, std::uintptr_t global) {
  if (block >= pointers_.size() || !pointers_[block].name.empty()) return;
  bool reference = false;
  if (const std::size_t pointee = sym_.global_pointee(global, &reference); pointee != 0)
    pointers_[block] =
        PointerLocal{sym_.variable(global), bug_.allocations[block].address, pointee, reference};
}

std::string ObjectNames::pointed_name(std::size_t block, std::uintptr_t offset) const {
  // Once per place: a long trace asks again at every step.
  auto [it, fresh] = pointed_.try_emplace({block, offset});
  if (!fresh) return it->second;
  const PointerLocal& p = pointers_[block];
  const std::string path = sym_.pointee_path(p.pointee, offset);
  if (p.reference) return it->second = p.name + path;
  if (path.starts_with(".")) return it->second = p.name + "->" + path.substr(1);
  if (path.starts_with("[")) return it->second = p.name + path;
  return it->second = "*" + p.name + path;  // its start, or inside no member ("*p+3")
}

std::string ObjectNames::heap_block_label(std::size_t index) const {
  const std::string id = heap_block_name(index);
  if (index >= pointers_.size() || pointers_[index].name.empty()) return id;
  const PointerLocal& p = pointers_[index];
  return (p.reference ? p.name : "*" + p.name) + " (" + id + ")";
}

std::string ObjectNames::local_name(std::uintptr_t address, ThreadId thread) const {
  if (thread >= bug_.thread_frames.size()) return "";
  for (const FrameNote& f : bug_.thread_frames[thread]) {
    if (f.cfa == 0) continue;
    std::string name = sym_.local_variable(address, f.pc, f.entry, f.cfa);
    if (!name.empty()) return name;
  }
  return "";
}

std::string ObjectNames::thread_given_name(ThreadId thread) const {
  return thread < bug_.thread_names.size() ? bug_.thread_names[thread] : std::string();
}

std::string ObjectNames::thread(ThreadId thread) const {
  const std::string given = thread_given_name(thread);
  return given.empty() ? thread_name(thread) : thread_name(thread) + " (" + given + ")";
}

std::string ObjectNames::object(const Op& op, std::size_t step) const {
  if (targets_thread(op.kind)) return thread(op.aux);
  if (op.object == 0) return {};
  if (op.kind == OpKind::FdWait) return "fd " + std::to_string(op.object - 1);
  return address(op.object, step);
}

std::string ObjectNames::address(std::uintptr_t address, std::size_t step) const {
  // The newest block holding it that was allocated by then. The blocks holding an address
  // are found once per address: a long trace asks again at every step.
  auto [blocks, fresh_address] = blocks_.try_emplace(address);
  if (fresh_address)
    for (std::size_t i = 0; i < bug_.allocations.size(); ++i) {
      const Allocation& a = bug_.allocations[i];
      if (address >= a.address && address - a.address < a.size) blocks->second.push_back(i);
    }
  for (auto i = blocks->second.rbegin(); i != blocks->second.rend(); ++i) {
    const Allocation& a = bug_.allocations[*i];
    if (a.step > step) continue;
    const std::uintptr_t offset = address - a.address;
    if (!pointers_[*i].name.empty()) return pointed_name(*i, offset);
    return heap_block_name(*i) + (offset == 0 ? "" : "+" + std::to_string(offset));
  }
  if (auto local = locals_.find(address); local != locals_.end()) return local->second;
  auto [it, fresh] = globals_.try_emplace(address);
  if (fresh) {
    it->second = sym_.variable(address);
    if (it->second.empty()) it->second = hex_address(address);
  }
  return it->second;
}

}  // namespace weft
