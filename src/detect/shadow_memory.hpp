#pragma once
// The race detector's shadow: for every 8-byte word of the program's memory, the last
// accesses to it (a Word of kCells cells, one cache line). A direct map, as in
// ThreadSanitizer, rather than a hash table: an address finds its word in two lookups,
// neighbouring words sit side by side, and nothing is ever rehashed or copied, so the
// cost of a big footprint is the kernel's zeroed pages of the words touched, once.
//
// The map has two levels over 64 KiB blocks of the program's address space: a table per
// GiB, and a block of 8192 Words per 64 KiB (freed memory's blocks are emptied lazily,
// page by page: forget()). Both are carved from ranges reserved up front
// (MAP_NORESERVE: only the pages touched take memory), so that the fork server's child
// maps nothing. Blocks come from two halves of one range: a block that continues a block
// used densely (an array) from the half in transparent huge pages, so that a big
// footprint takes a fault per 2 MiB; any other (a thread's stack, globals, scattered heap
// objects) from the half in small pages, so that a few words do not cost a 2 MiB page
// zeroed. Beyond kMaxBlocks / 2 blocks of a kind, words are untracked (scratch(): races
// there may be missed, none is invented).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::detect {

class ShadowMemory {
 public:
  static constexpr int kCells = 4;
  // The thread of a freed word's marker cell (RaceDetector::freed): no thread's clock has
  // an entry for it, so the marker is unordered with every access and the existing race
  // check finds it; words never freed pay nothing for it.
  static constexpr std::uint16_t kFreedThread = 0xffff;
  struct Cell {
    std::uint32_t clock;
    std::uint16_t thread;
    std::uint8_t offset;
    std::uint8_t size;      // 0: empty
    std::uint64_t pc : 62;  // user-space code addresses have 47 bits
    std::uint64_t write : 1;
    std::uint64_t atomic : 1;
  };
  struct alignas(64) Word {
    Cell cells[kCells];
    bool empty() const {
      return (cells[0].size | cells[1].size | cells[2].size | cells[3].size) == 0;
    }
  };
  static_assert(sizeof(Word) == 64, "a word's shadow is one cache line");

  ShadowMemory();
  ~ShadowMemory();
  ShadowMemory(const ShadowMemory&) = delete;
  ShadowMemory& operator=(const ShadowMemory&) = delete;

  // false: the ranges could not be reserved; every word is then scratch().
  bool ok() const { return blocks_ != nullptr; }
  // The address space it reserves (nothing committed until used).
  static constexpr std::size_t reserved_bytes() {
    return kTopEntries * 4 + kMaxTables * kTableEntries * 4 +
           kMaxBlocks * kBlockWords * sizeof(Word) + kMaxBlocks * sizeof(BlockState);
  }

  // The shadow of the word at `w` (8-aligned), made when absent.
  Word& word(std::uintptr_t w) {
    Word* wd = find(w);
    if (wd == nullptr) return make(w);
    if (wd->empty()) note(wd);
    return *wd;
  }
  // The shadow of the word at `w`, or nullptr when none was ever made.
  Word* find(std::uintptr_t w) {
    // Most accesses are to the block of the one before (a block with stale pages is
    // never remembered here: each access checks its page).
    if ((w & ~(kBlockBytes - 1)) != last_base_) return find_slow(w);
    return &last_block_[(w >> 3) & (kBlockWords - 1)];
  }

  // Empties the cells of [address, address + size) that `clear` says to (it is given
  // each existing word in the range, with the word's address). Whole blocks inside the
  // range are emptied lazily instead: their pages in use become stale, each zeroed when
  // next looked at, so that freeing a big block costs nothing until its memory is used
  // again, and then a page's memset rather than a page fault.
  template <typename ClearWord>
  void forget(std::uintptr_t address, std::size_t size, ClearWord clear) {
    const std::uintptr_t end = address + size;
    for (std::uintptr_t b = address & ~(kBlockBytes - 1); b < end; b += kBlockBytes) {
      const std::uint32_t* entry = ok() ? block_entry(b, false) : nullptr;
      if (entry == nullptr || *entry == 0) continue;
      const std::uint32_t block = *entry - 1;
      if (b >= address && b + kBlockBytes <= end) {
        make_stale(block);
        continue;
      }
      Word* first = &blocks_[block * kBlockWords];
      const std::uintptr_t from = std::max(b, address & ~std::uintptr_t{7});
      const std::uintptr_t to = std::min(b + kBlockBytes, end);
      for (std::uintptr_t w = from; w < to; w += 8) {
        Word& wd = first[(w - b) >> 3];
        if (!wd.empty()) clear(wd, w);
      }
    }
  }

  // Calls `look(word, address)` for each word of [address, address + size) that holds
  // cells (pages never used, or stale since forgotten, are skipped whole): what a free
  // of the range may race with. Reads only.
  template <typename LookAtWord>
  void visit(std::uintptr_t address, std::size_t size, LookAtWord look) {
    const std::uintptr_t end = address + size;
    for (std::uintptr_t b = address & ~(kBlockBytes - 1); b < end; b += kBlockBytes) {
      const std::uint32_t* entry = ok() ? block_entry(b, false) : nullptr;
      if (entry == nullptr || *entry == 0) continue;
      const std::uint32_t block = *entry - 1;
      const BlockState& st = states_[block];
      Word* first = &blocks_[block * kBlockWords];
      const std::uintptr_t from = std::max(b, address & ~std::uintptr_t{7});
      const std::uintptr_t to = std::min(b + kBlockBytes, end);
      for (std::uintptr_t w = from; w < to; w += 8) {
        const std::size_t index = (w - b) >> 3, page = index / kPageWords;
        const std::uint64_t bit = std::uint64_t{1} << (page % 64);
        if ((st.touched[page / 64] & bit) == 0 || (st.stale[page / 64] & bit) != 0) {
          w = b + (page + 1) * kPageWords * 8 - 8;  // the next page
          continue;
        }
        if (!first[index].empty()) look(first[index], w);
      }
    }
  }

  // A new execution: every word empty. Few words used: they are cleared in place (in a
  // fork server's child, every page written is a fault and a copy); else the blocks go
  // back to the kernel.
  void reset();
  // Every word, block and table emptied and their pages given back to the kernel: the
  // shadow as it was made (a process put back to before its executions needs that).
  void clear_all();
  // The ranges it reserved (for a snapshot to leave out: clear_all() restores them).
  struct Range {
    const void* begin;
    std::size_t bytes;
  };
  std::array<Range, 4> ranges() const;

  // A word with no history, for addresses beyond the map (emptied at each call).
  Word& scratch() {
    scratch_ = Word{};
    return scratch_;
  }

 private:
  static constexpr int kAddressBits = 47;  // x86-64 and AArch64 user space
  static constexpr int kTableShift = 30;   // a table per GiB
  static constexpr int kBlockShift = 16;   // a block per 64 KiB
  static constexpr std::uintptr_t kBlockBytes = std::uintptr_t{1} << kBlockShift;
  static constexpr std::size_t kTableEntries = std::size_t{1} << (kTableShift - kBlockShift);
  static constexpr std::size_t kBlockWords = kBlockBytes / 8;
  static constexpr std::size_t kTopEntries = std::size_t{1} << (kAddressBits - kTableShift);
  static constexpr std::size_t kMaxTables = 1024;
  static constexpr std::size_t kMaxBlocks = 8192;  // 512 MiB of the program's memory, in all
  static constexpr std::size_t kTrackedWords = 4096;

  static constexpr std::size_t kPageWords = 4096 / sizeof(Word);
  static constexpr std::size_t kBlockPages = kBlockWords / kPageWords;  // 128

  // Per block: which of its shadow pages hold words in use (since the block was last
  // emptied) and which hold words of memory since forgotten, to be zeroed before use.
  struct BlockState {
    std::uint64_t touched[kBlockPages / 64];
    std::uint64_t stale[kBlockPages / 64];
    std::uint32_t used;  // words taken into use since the last reset
    bool has_stale() const { return (stale[0] | stale[1]) != 0; }
  };

  Word* find_slow(std::uintptr_t w);
  Word& make(std::uintptr_t w);
  std::uint32_t* block_entry(std::uintptr_t w, bool make);  // nullptr: none (or no room)
  void note(Word* wd);                                      // a word taken into use
  void make_stale(std::uint32_t block);

  std::uint32_t* top_ = nullptr;     // kTopEntries: table number + 1, 0 none
  std::uint32_t* tables_ = nullptr;  // kMaxTables x kTableEntries: block number + 1
  Word* blocks_ = nullptr;           // kMaxBlocks x kBlockWords, in two halves
  BlockState* states_ = nullptr;     // kMaxBlocks
  std::uintptr_t last_base_ = 1;     // find()'s last block (1: none, blocks are aligned)
  Word* last_block_ = nullptr;
  std::uint32_t ntables_ = 0;
  std::uint32_t nlone_ = 0;  // blocks made in the small-page half
  std::uint32_t nnext_ = 0;  // blocks made in the huge-page half
  // Words made since the last reset while fewer than kTrackedWords (then all blocks go).
  std::vector<Word*> made_;
  bool many_ = false;
  Word scratch_{};
};

}  // namespace weft::detect
