// A strategy's saved state (checkpoints) read back: what was written reads the same, and a
// count that claims more than the words after it hold fails the reader without reading
// past them (a fuzzed checkpoint's vector read one word past its end).
#include "core/state_words.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace weft {
namespace {

TEST(StateWords, WhatWasWrittenReadsTheSame) {
  std::vector<std::uint64_t> words;
  StateWriter w(&words);
  w.put(7);
  w.put_string("a string of more than eight bytes");
  w.put_vector({1, 2, 3});
  w.put_vector({});
  StateReader r(words);
  EXPECT_EQ(r.get(), 7u);
  EXPECT_EQ(r.get_string(), "a string of more than eight bytes");
  EXPECT_EQ(r.get_vector(), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_TRUE(r.get_vector().empty());
  EXPECT_TRUE(r.done());
}

TEST(StateWords, ACountLargerThanTheWordsAfterItFails) {
  // A vector of 2 claimed, 1 word after the count: the count's own word is no item.
  const std::vector<std::uint64_t> vector_words = {2, 42};
  StateReader v(vector_words);
  EXPECT_TRUE(v.get_vector().empty());
  EXPECT_FALSE(v.ok());
  // Exactly as many as there are reads whole.
  const std::vector<std::uint64_t> whole = {1, 42};
  StateReader ok(whole);
  EXPECT_EQ(ok.get_vector(), std::vector<std::uint64_t>{42});
  EXPECT_TRUE(ok.done());
  // A string of 9 bytes needs two words after its length.
  const std::vector<std::uint64_t> string_words = {9, 0x4141414141414141};
  StateReader s(string_words);
  EXPECT_EQ(s.get_string(), "");
  EXPECT_FALSE(s.ok());
  // Items of 3 words: 2 claimed, 5 words after the count.
  const std::vector<std::uint64_t> items = {2, 1, 2, 3, 4, 5};
  StateReader c(items);
  EXPECT_EQ(c.get_count(3), 0u);
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace weft
