#pragma once
// Freed heap blocks held back from the allocator for a while (a bounded FIFO), so that
// the memory of a block the program freed is not handed out again at once: an access to
// it is then an access to a freed block, which the race detector's shadow marks (see
// RaceDetector::freed), not to some newer object that happens to live there. Blocks past
// the bounds, oldest first, are given back for real and forgotten.
//
// Fixed storage, made at the first block kept (a program that frees nothing, or a fork
// server's child per execution, pays nothing for it), left uninitialised so that only the
// pages used are touched; freeing never allocates after that. Each execution starts empty
// (a fork server's child inherits it empty; in-process executions clear it), so that the
// heap an execution sees is a function of its schedule alone.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/op.hpp"

namespace weft::rt {

// A block in the quarantine: what a use-after-free report says about its free.
struct FreedBlock {
  std::uintptr_t address;
  std::size_t size;
  ThreadId thread;     // the thread that freed it
  std::uintptr_t pc;   // return address of the free
  std::uint64_t step;  // steps taken when it was freed
  bool was_step;       // the free was step number `step` itself
};

class HeapQuarantine {
 public:
  static constexpr std::size_t kCapacity = 4096;                  // blocks held at once
  static constexpr std::size_t kMaxBytes = std::size_t{8} << 20;  // bytes held at once
  // A bigger block is freed at once: marking its words freed would cost more than the
  // check is worth (ASan likewise bounds the blocks it holds).
  static constexpr std::size_t kMaxBlock = std::size_t{64} << 10;

  static bool keeps(std::size_t size) { return size != 0 && size <= kMaxBlock; }

  // Holds `b` (keeps(b.size)); the oldest blocks past the bounds go to `release`.
  template <typename Release>
  void keep(const FreedBlock& b, Release release) {
    if (blocks_ == nullptr) blocks_.reset(new FreedBlock[kCapacity]);
    while (count_ > 0 && (count_ == kCapacity || bytes_ + b.size > kMaxBytes)) release(pop());
    blocks_[(head_ + count_) % kCapacity] = b;
    ++count_;
    bytes_ += b.size;
  }

  // Every block goes to `release`, oldest first.
  template <typename Release>
  void clear(Release release) {
    while (count_ > 0) release(pop());
  }

  // The newest block that overlaps [address, address + size), or nullptr (held blocks
  // are never reused, so two overlap only when the program freed one block twice).
  const FreedBlock* find(std::uintptr_t address, std::size_t size = 1) const {
    for (std::size_t i = count_; i-- > 0;) {
      const FreedBlock& b = blocks_[(head_ + i) % kCapacity];
      if (b.address < address + size && address < b.address + b.size) return &b;
    }
    return nullptr;
  }

  std::size_t count() const { return count_; }
  std::size_t bytes() const { return bytes_; }

 private:
  FreedBlock pop() {
    const FreedBlock b = blocks_[head_];
    head_ = (head_ + 1) % kCapacity;
    --count_;
    bytes_ -= b.size;
    return b;
  }

  std::unique_ptr<FreedBlock[]> blocks_;
  std::size_t head_ = 0, count_ = 0, bytes_ = 0;
};

}  // namespace weft::rt
