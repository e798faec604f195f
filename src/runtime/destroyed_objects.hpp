#pragma once
// The synchronisation objects the program destroyed in this execution, and by whom: a
// later use of one is an api-misuse whose report says where it was destroyed. Only
// consulted when the object's memory says destroyed too (glibc's mark), so that memory
// initialised again without a call weft sees (a std::mutex's constant initialisation in
// a reused stack slot) is never taken for the old object.
#include <cstdint>

#include "core/run_record.hpp"
#include "runtime/object_map.hpp"

namespace weft::rt {

class DestroyedObjects {
 public:
  void reset() { destroyed_.clear(); }
  void destroyed(std::uintptr_t object, ThreadId thread, std::uintptr_t pc, std::uint64_t step) {
    destroyed_.at(object) = Destroy{thread, pc, step};
  }
  // Initialised again (pthread_mutex_init): a new object.
  void initialised(std::uintptr_t object) {
    if (!destroyed_.empty()) destroyed_.erase(object);
  }
  bool contains(std::uintptr_t object) const { return destroyed_.contains(object); }
  // What a report says of `object`: its destroy, when it was destroyed.
  Misuse misuse(std::uintptr_t object, Misuse::Object kind) const {
    Misuse m;
    m.object = object;
    m.kind = kind;
    if (const Destroy* d = destroyed_.find(object)) {
      m.destroyed_by = d->thread;
      m.destroy_pc = d->pc;
      m.destroy_step = d->step;
    }
    return m;
  }

 private:
  struct Destroy {
    ThreadId thread = kNoThread;
    std::uintptr_t pc = 0;
    std::uint64_t step = 0;
  };
  ObjectMap<Destroy> destroyed_;
};

}  // namespace weft::rt
