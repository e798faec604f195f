#pragma once
// A search's state as words (weft run --checkpoint, core/checkpoint.hpp): what a strategy
// writes with Strategy::save_state and reads back with load_state. The reader never reads
// past its words and never trusts a count the words cannot hold: a damaged or hostile
// file is refused, not followed.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace weft {

class StateWriter {
 public:
  explicit StateWriter(std::vector<std::uint64_t>* out) : out_(out) {}
  void put(std::uint64_t v) { out_->push_back(v); }
  void put_signed(std::int64_t v) { put(static_cast<std::uint64_t>(v)); }
  // A sampler's count of executions, execution k drawing from its own seed: one still
  // unfinished when the state is saved is not counted, and runs again after a resume.
  void put_executions(std::uint64_t executions, bool unfinished) {
    put(executions - (unfinished && executions != 0 ? 1 : 0));
  }
  void put_string(const std::string& s) {
    put(s.size());
    for (std::size_t i = 0; i < s.size(); i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, s.data() + i, std::min<std::size_t>(8, s.size() - i));
      put(w);
    }
  }
  void put_vector(const std::vector<std::uint64_t>& v) {
    put(v.size());
    out_->insert(out_->end(), v.begin(), v.end());
  }

 private:
  std::vector<std::uint64_t>* out_;
};

class StateReader {
 public:
  explicit StateReader(std::span<const std::uint64_t> words) : words_(words) {}
  // The next word; 0, and the reader failed, past the end.
  std::uint64_t get() {
    if (at_ >= words_.size()) {
      ok_ = false;
      return 0;
    }
    return words_[at_++];
  }
  std::int64_t get_signed() { return static_cast<std::int64_t>(get()); }
  // A word that must be at most `max` (a flag, an enum, a small count).
  std::uint64_t get_at_most(std::uint64_t max) {
    const std::uint64_t v = get();
    if (v > max) ok_ = false;
    return ok_ ? v : 0;
  }
  // A count of items of `each` words (at least 1) that the words after it can hold (read
  // first: the count's own word is no room for items).
  std::uint64_t get_count(std::uint64_t each) {
    const std::uint64_t n = get();
    if (n > left() / (each == 0 ? 1 : each)) ok_ = false;
    return ok_ ? n : 0;
  }
  std::string get_string() {
    const std::uint64_t n = get();
    if (n > left() * 8) ok_ = false;
    if (!ok_) return std::string();
    std::string s(n, '\0');
    for (std::size_t i = 0; ok_ && i < n; i += 8) {
      const std::uint64_t w = get();
      std::memcpy(s.data() + i, &w, std::min<std::size_t>(8, n - i));
    }
    return ok_ ? s : std::string();
  }
  std::vector<std::uint64_t> get_vector() {
    const std::uint64_t n = get_count(1);
    std::vector<std::uint64_t> v;
    if (!ok_) return v;
    v.assign(words_.begin() + static_cast<std::ptrdiff_t>(at_),
             words_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return v;
  }
  void fail() { ok_ = false; }
  bool ok() const { return ok_; }
  // Every word read, none missing.
  bool done() const { return ok_ && at_ == words_.size(); }
  std::size_t left() const { return words_.size() - at_; }

 private:
  std::span<const std::uint64_t> words_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace weft
