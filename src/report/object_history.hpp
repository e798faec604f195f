#pragma once
// What happened to the object of an api-misuse (BugRecord::misuse) in the bug's execution,
// oldest first: its steps in the trace (locked, unlocked, waited on...) and, when the
// program destroyed it, the destroy, which is not a step. The call being reported (the
// trace's last step, when it is one) is the bug itself, not history.
#include <cstdint>
#include <string>
#include <vector>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

class ObjectHistory {
 public:
  struct Entry {
    std::string what;  // "locked", "destroyed", "waited on"...
    ThreadId thread = kNoThread;
    std::uint64_t step = 0;   // 1-based; for a destroy, the last step before it
    bool after_step = false;  // a destroy: after `step`, not a step itself
    Frame where;
  };
  static constexpr std::size_t kMaxEntries = 6;  // the newest; older ones are counted

  ObjectHistory(const BugRecord& bug, Symbolizer& symbolizer);

  // "mutex", "condition variable", "semaphore", "barrier", "read-write lock".
  static const char* noun(Misuse::Object kind);
  const std::vector<Entry>& entries() const { return entries_; }
  std::size_t omitted() const { return omitted_; }  // older entries left out

 private:
  std::vector<Entry> entries_;
  std::size_t omitted_ = 0;
};

}  // namespace weft
