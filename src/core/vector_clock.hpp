#pragma once
// A vector clock over the threads of one execution (indexed by ThreadId), for
// happens-before: a <= b when every component of a is at most b's.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/op.hpp"

namespace weft {

class VectorClock {
 public:
  std::uint32_t get(ThreadId t) const { return t < c_.size() ? c_[t] : 0; }
  void set(ThreadId t, std::uint32_t v) {
    if (t >= c_.size()) c_.resize(t + 1, 0);
    c_[t] = v;
  }
  void tick(ThreadId t) { set(t, get(t) + 1); }
  // this := this ⊔ o
  void join(const VectorClock& o) {
    if (o.c_.size() > c_.size()) c_.resize(o.c_.size(), 0);
    for (std::size_t i = 0; i < o.c_.size(); ++i) c_[i] = std::max(c_[i], o.c_[i]);
  }
  void clear() { c_.clear(); }
  bool empty() const { return c_.empty(); }
  // Every event this clock knows of is known to `o` too.
  bool leq(const VectorClock& o) const {
    for (std::size_t i = 0; i < c_.size(); ++i)
      if (c_[i] > o.get(static_cast<ThreadId>(i))) return false;
    return true;
  }
  bool operator==(const VectorClock& o) const {
    const std::size_t n = std::max(c_.size(), o.c_.size());
    for (std::size_t i = 0; i < n; ++i)
      if (get(static_cast<ThreadId>(i)) != o.get(static_cast<ThreadId>(i))) return false;
    return true;
  }

 private:
  std::vector<std::uint32_t> c_;
};

}  // namespace weft
