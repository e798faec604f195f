// The Controller's part in heap checking: frees held in the quarantine, their words
// marked freed in the race detector's shadow, and the reports of a use after free, a
// double free and a free of a pointer no allocation returned.
#include <algorithm>
#include <cstddef>
#include <string>

#include "runtime/controller.hpp"

extern "C" void __libc_free(void* p);

namespace weft::rt {
namespace {

// glibc's malloc returns blocks aligned to this (MALLOC_ALIGNMENT), memalign's more.
constexpr std::uintptr_t kMallocAlignment = alignof(std::max_align_t);

std::uint16_t saturated(std::size_t n) {
  return static_cast<std::uint16_t>(std::min<std::size_t>(n, 0xffff));
}

std::string count(std::size_t n, const char* unit) {
  return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
}

// "a heap block of 48 bytes that thread 0 freed at step 7"
std::string freed_block(const FreedBlock& b) {
  return "a heap block of " + count(b.size, "byte") + " that thread " + std::to_string(b.thread) +
         " freed " + (b.was_step ? "at step " : "after step ") + std::to_string(b.step);
}

}  // namespace

bool Controller::freeing(ThreadState* self, std::uintptr_t address, std::size_t size,
                         std::uintptr_t pc, bool may_keep) {
  const auto aux = static_cast<std::uint32_t>(std::min<std::size_t>(size, 0xffffffffu));
  const Op op = make_op(OpKind::Free, address, pc, saturated(size), aux);
  if (access_is_point(op) || plain_spin(self, op)) schedule(self, op);
  const bool keep = may_keep && tracks_memory() && HeapQuarantine::keeps(size);
  if (tracks_memory()) detect_race(self, op, size, keep);
  onces.forget(address, size);
  if (!keep) return false;
  const Event* last = step_ > 0 ? &events_[step_ - 1] : nullptr;
  const bool was_step = last != nullptr && last->thread == self->id &&
                        last->op.kind == OpKind::Free && last->op.object == address;
  quarantine_.keep(FreedBlock{address, size, self->id, pc, step_, was_step},
                   [this](const FreedBlock& b) { release(b); });
  return true;
}

void Controller::check_free(ThreadState* self, std::uintptr_t address, std::uintptr_t pc) {
  if (!tracks_memory()) return;
  if (address % kMallocAlignment != 0) invalid_free(self, address, pc, nullptr);
  if (!races_->is_freed(address)) return;
  const FreedBlock* b = quarantine_.find(address);
  if (b == nullptr) return;  // (a marked word is always a held block's)
  if (b->address != address) invalid_free(self, address, pc, b);
  DataRace race;
  race.address = address;
  race.later = RaceAccess{self->id, pc, true, saturated(b->size), true};
  use_after_free(self, make_op(OpKind::Free, address, pc, saturated(b->size)), race);
}

void Controller::check_object_alive(ThreadState* self, std::uintptr_t address, std::size_t size,
                                    std::uintptr_t pc, OpKind kind) {
  if (!tracks_memory() || !races_->is_freed(address) || quarantine_.find(address, size) == nullptr)
    return;
  DataRace race;
  race.address = address;
  race.later = RaceAccess{self->id, pc, true, saturated(size), false};
  use_after_free(self, make_op(kind, address, pc, saturated(size)), race);
}

void Controller::use_after_free(ThreadState* self, const Op& op, DataRace& race) {
  const std::size_t size = std::max<std::size_t>(race.later.size, 1);
  const FreedBlock* b = quarantine_.find(race.address, size);
  std::string msg;
  race.later.free = op.kind == OpKind::Free;
  if (op.kind == OpKind::Free)
    msg = "double free: thread " + std::to_string(self->id) + " frees ";
  else if (!is_memory_access(op.kind))  // a call on an object in the block (a mutex's lock)
    msg = "thread " + std::to_string(self->id) + " calls " + std::string(op_name(op.kind)) +
          " on " + count(race.later.size, "byte") + " of ";
  else
    msg = "thread " + std::to_string(self->id) + (op.writes() ? " writes " : " reads ") +
          count(race.later.size, "byte") + " of ";
  if (b != nullptr) {
    msg += freed_block(*b);
    race.address = std::max(race.address, b->address);
    race.earlier = RaceAccess{b->thread, b->pc, true, saturated(b->size), true};
  } else {
    msg += "a freed heap block";
    race.earlier.thread = kNoThread;
  }
  BugReport bug;
  bug.kind = BugKind::kUseAfterFree;
  bug.message = msg;
  bug.thread = self->id;
  bug.pc = op.pc;
  bug.race = &race;
  fail(bug);
}

void Controller::invalid_free(ThreadState* self, std::uintptr_t address, std::uintptr_t pc,
                              const FreedBlock* inside) {
  // (No address: it differs between runs; the report shows where the free is.)
  std::string msg = "free of a pointer no allocation returned: ";
  if (inside != nullptr)
    msg += count(address - inside->address, "byte") + " into " + freed_block(*inside);
  else
    msg += "not " + std::to_string(kMallocAlignment) +
           "-byte aligned, as every block malloc returns is";
  BugReport bug;
  bug.kind = BugKind::kInvalidFree;
  bug.message = msg;
  bug.thread = self->id;
  bug.pc = pc;
  fail(bug);
}

void Controller::release(const FreedBlock& b) {
  if (races_ != nullptr) races_->forget(b.address, b.size);
  __libc_free(reinterpret_cast<void*>(b.address));
}

void Controller::clear_quarantine(bool forget) {
  if (forget)
    quarantine_.clear([this](const FreedBlock& b) { release(b); });
  else
    quarantine_.clear([](const FreedBlock& b) { __libc_free(reinterpret_cast<void*>(b.address)); });
}

}  // namespace weft::rt
