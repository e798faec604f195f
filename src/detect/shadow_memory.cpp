#include "detect/shadow_memory.hpp"

#include <sys/mman.h>

#include <algorithm>

namespace weft::detect {
namespace {

// Zeroed pages from the kernel when first touched; no memory is committed up front.
// The first `small` elements get small pages whatever the system's default, the rest
// transparent huge pages.
template <typename T>
T* reserve(std::size_t n, std::size_t small) {
  void* p = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  auto* first = static_cast<T*>(p);
  madvise(first, small * sizeof(T), MADV_NOHUGEPAGE);
  if (small < n) madvise(first + small, (n - small) * sizeof(T), MADV_HUGEPAGE);
  return first;
}

template <typename T>
void unreserve(T* p, std::size_t n) {
  if (p != nullptr) munmap(p, n * sizeof(T));
}

}  // namespace

ShadowMemory::ShadowMemory()
    : top_(reserve<std::uint32_t>(kTopEntries, kTopEntries)),
      tables_(reserve<std::uint32_t>(kMaxTables * kTableEntries, kMaxTables * kTableEntries)),
      blocks_(reserve<Word>(kMaxBlocks * kBlockWords, kMaxBlocks / 2 * kBlockWords)) {
  if (top_ == nullptr || tables_ == nullptr || blocks_ == nullptr) {
    unreserve(blocks_, kMaxBlocks * kBlockWords);
    blocks_ = nullptr;
  }
}

ShadowMemory::~ShadowMemory() {
  unreserve(top_, kTopEntries);
  unreserve(tables_, kMaxTables * kTableEntries);
  unreserve(blocks_, kMaxBlocks * kBlockWords);
}

std::uint32_t* ShadowMemory::block_entry(std::uintptr_t w, bool make) {
  if ((w >> kAddressBits) != 0 || !ok()) return nullptr;
  std::uint32_t& table = top_[w >> kTableShift];
  if (table == 0) {
    if (!make || ntables_ == kMaxTables) return nullptr;
    table = ++ntables_;
  }
  return &tables_[(table - 1) * kTableEntries + ((w >> kBlockShift) & (kTableEntries - 1))];
}

ShadowMemory::Word& ShadowMemory::make(std::uintptr_t w) {
  std::uint32_t* block = block_entry(w, true);
  if (block == nullptr) return scratch();
  if (*block == 0) {
    // Dense: half the words of the block before it in use.
    const std::uint32_t* before = block_entry(w - kBlockBytes, false);
    const bool next = before != nullptr && *before != 0 && used_[*before - 1] >= kBlockWords / 2;
    if (next && nnext_ < kMaxBlocks / 2) {
      *block = static_cast<std::uint32_t>(kMaxBlocks / 2 + ++nnext_);
    } else if (nlone_ < kMaxBlocks / 2) {
      *block = ++nlone_;
    } else {
      return scratch();  // a lone block never takes a huge page
    }
  }
  Word* wd = &blocks_[(*block - 1) * kBlockWords + ((w >> 3) & (kBlockWords - 1))];
  if (wd->empty()) note(wd, &used_[*block - 1]);
  return *wd;
}

void ShadowMemory::release(Word* block) {
  madvise(block, kBlockWords * sizeof(Word), MADV_DONTNEED);
  used_[(block - blocks_) / kBlockWords] = 0;
}

void ShadowMemory::reset() {
  if (!many_) {
    for (Word* wd : made_) *wd = Word{};
  } else {
    if (nlone_ > 0) madvise(blocks_, nlone_ * kBlockWords * sizeof(Word), MADV_DONTNEED);
    if (nnext_ > 0)
      madvise(blocks_ + kMaxBlocks / 2 * kBlockWords, nnext_ * kBlockWords * sizeof(Word),
              MADV_DONTNEED);
  }
  made_.clear();
  many_ = false;
  std::fill(used_.begin(), used_.begin() + nlone_, 0);
  std::fill(used_.begin() + kMaxBlocks / 2, used_.begin() + kMaxBlocks / 2 + nnext_, 0);
}

}  // namespace weft::detect
