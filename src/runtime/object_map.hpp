#pragma once
// Model state of synchronisation objects, keyed by address, created on first use and
// forgotten between executions (the real objects are never touched while under test).
#include <cstdint>
#include <iterator>
#include <unordered_map>

namespace weft::rt {

template <typename State>
class ObjectMap {
 public:
  State& at(std::uintptr_t addr) { return map_[addr]; }
  State* find(std::uintptr_t addr) {
    auto it = map_.find(addr);
    return it == map_.end() ? nullptr : &it->second;
  }
  const State* find(std::uintptr_t addr) const {
    auto it = map_.find(addr);
    return it == map_.end() ? nullptr : &it->second;
  }
  bool contains(std::uintptr_t addr) const { return map_.count(addr) != 0; }
  void erase(std::uintptr_t addr) { map_.erase(addr); }
  void clear() { map_.clear(); }
  bool empty() const { return map_.empty(); }
  // Forgets the objects in [begin, end): their memory was freed.
  void erase_range(std::uintptr_t begin, std::uintptr_t end) {
    for (auto it = map_.begin(); it != map_.end();)
      it = it->first >= begin && it->first < end ? map_.erase(it) : std::next(it);
  }

 private:
  std::unordered_map<std::uintptr_t, State> map_;
};

}  // namespace weft::rt
