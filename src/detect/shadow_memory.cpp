#include "detect/shadow_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

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
      blocks_(reserve<Word>(kMaxBlocks * kBlockWords, kMaxBlocks / 2 * kBlockWords)),
      states_(reserve<BlockState>(kMaxBlocks, kMaxBlocks)) {
  if (top_ == nullptr || tables_ == nullptr || blocks_ == nullptr || states_ == nullptr) {
    unreserve(blocks_, kMaxBlocks * kBlockWords);
    blocks_ = nullptr;
  }
}

ShadowMemory::~ShadowMemory() {
  unreserve(top_, kTopEntries);
  unreserve(tables_, kMaxTables * kTableEntries);
  unreserve(blocks_, kMaxBlocks * kBlockWords);
  unreserve(states_, kMaxBlocks);
}

ShadowMemory::Word* ShadowMemory::find_slow(std::uintptr_t w) {
  const std::uint32_t* entry = block_entry(w, false);
  if (entry == nullptr || *entry == 0) return nullptr;
  const std::uint32_t block = *entry - 1;
  Word* first = &blocks_[block * kBlockWords];
  const std::size_t index = (w >> 3) & (kBlockWords - 1);
  BlockState& st = states_[block];
  if (st.has_stale()) {
    const std::size_t page = index / kPageWords;
    std::uint64_t& bits = st.stale[page / 64];
    if (bits & (std::uint64_t{1} << (page % 64))) {
      std::memset(static_cast<void*>(&first[page * kPageWords]), 0, kPageWords * sizeof(Word));
      bits &= ~(std::uint64_t{1} << (page % 64));
    }
    if (st.has_stale()) return &first[index];
  }
  last_base_ = w & ~(kBlockBytes - 1);
  last_block_ = first;
  return &first[index];
}

void ShadowMemory::note(Word* wd) {
  const std::size_t at = static_cast<std::size_t>(wd - blocks_);
  BlockState& st = states_[at / kBlockWords];
  ++st.used;
  const std::size_t page = (at % kBlockWords) / kPageWords;
  st.touched[page / 64] |= std::uint64_t{1} << (page % 64);
  if (many_) return;
  if (made_.size() < kTrackedWords)
    made_.push_back(wd);
  else
    many_ = true;
}

void ShadowMemory::make_stale(std::uint32_t block) {
  BlockState& st = states_[block];
  for (std::size_t i = 0; i < kBlockPages / 64; ++i) {
    st.stale[i] |= st.touched[i];
    st.touched[i] = 0;
  }
  st.used = 0;
  if (st.has_stale() && last_block_ == &blocks_[block * kBlockWords]) last_base_ = 1;
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
    const bool next =
        before != nullptr && *before != 0 && states_[*before - 1].used >= kBlockWords / 2;
    if (next && nnext_ < kMaxBlocks / 2) {
      *block = static_cast<std::uint32_t>(kMaxBlocks / 2 + ++nnext_);
    } else if (nlone_ < kMaxBlocks / 2) {
      *block = ++nlone_;
    } else {
      return scratch();  // a lone block never takes a huge page
    }
  }
  Word* wd = &blocks_[(*block - 1) * kBlockWords + ((w >> 3) & (kBlockWords - 1))];
  if (wd->empty()) note(wd);
  return *wd;
}

void ShadowMemory::reset() {
  // The words in use are emptied (stale pages stay stale: they still hold old words).
  auto each_block = [&](auto f) {
    for (std::uint32_t b = 0; b < nlone_; ++b) f(states_[b]);
    for (std::uint32_t b = 0; b < nnext_; ++b) f(states_[kMaxBlocks / 2 + b]);
  };
  if (!many_) {
    for (Word* wd : made_) *wd = Word{};
    each_block([](BlockState& st) {
      st.touched[0] = st.touched[1] = 0;
      st.used = 0;
    });
  } else {
    if (nlone_ > 0) madvise(blocks_, nlone_ * kBlockWords * sizeof(Word), MADV_DONTNEED);
    if (nnext_ > 0)
      madvise(blocks_ + kMaxBlocks / 2 * kBlockWords, nnext_ * kBlockWords * sizeof(Word),
              MADV_DONTNEED);
    each_block([](BlockState& st) { st = BlockState{}; });
    last_base_ = 1;  // a block with stale pages is not remembered; all are clean now
  }
  made_.clear();
  many_ = false;
}

void ShadowMemory::clear_all() {
  if (!ok()) return;
  auto give_back = [](const void* p, std::size_t bytes) {
    if (bytes > 0) madvise(const_cast<void*>(p), bytes, MADV_DONTNEED);
  };
  give_back(top_, kTopEntries * sizeof *top_);
  give_back(tables_, std::size_t{ntables_} * kTableEntries * sizeof *tables_);
  give_back(blocks_, std::size_t{nlone_} * kBlockWords * sizeof(Word));
  give_back(blocks_ + kMaxBlocks / 2 * kBlockWords,
            std::size_t{nnext_} * kBlockWords * sizeof(Word));
  give_back(states_, std::size_t{nlone_} * sizeof(BlockState));
  give_back(states_ + kMaxBlocks / 2, std::size_t{nnext_} * sizeof(BlockState));
  last_base_ = 1;
  last_block_ = nullptr;
  ntables_ = nlone_ = nnext_ = 0;
  made_.clear();
  many_ = false;
  scratch_ = Word{};
}

std::array<ShadowMemory::Range, 4> ShadowMemory::ranges() const {
  return {Range{top_, kTopEntries * sizeof *top_},
          Range{tables_, kMaxTables * kTableEntries * sizeof *tables_},
          Range{blocks_, kMaxBlocks * kBlockWords * sizeof(Word)},
          Range{states_, kMaxBlocks * sizeof(BlockState)}};
}

}  // namespace weft::detect
