#include "core/op.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace weft {
namespace {

TEST(Op, EveryKindHasAUniqueNameThatParsesBack) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < kOpKindCount; ++i) {
    const auto kind = static_cast<OpKind>(i);
    const std::string name(op_name(kind));
    EXPECT_TRUE(names.insert(name).second) << name;
    OpKind back;
    ASSERT_TRUE(op_from_name(name, &back)) << name;
    EXPECT_EQ(back, kind);
  }
  OpKind unused;
  EXPECT_FALSE(op_from_name("no-such-op", &unused));
}

TEST(Op, ConflictsNeedTheSameObjectAndAWriteOrRelease) {
  const Op r1 = make_op(OpKind::Read, 0x10), r2 = make_op(OpKind::Read, 0x10);
  const Op w = make_op(OpKind::Write, 0x10), w_other = make_op(OpKind::Write, 0x20);
  EXPECT_FALSE(conflicting(r1, r2));
  EXPECT_TRUE(conflicting(r1, w));
  EXPECT_TRUE(conflicting(w, r1));
  EXPECT_FALSE(conflicting(w, w_other));
  EXPECT_TRUE(conflicting(make_op(OpKind::MutexLock, 0x30), make_op(OpKind::MutexUnlock, 0x30)));
  EXPECT_FALSE(conflicting(make_op(OpKind::Yield), make_op(OpKind::Yield)));
  EXPECT_EQ(sizeof(Op), 24u);
}

}  // namespace
}  // namespace weft
