// The text report's tables: columns that give way in their order when rows are too wide.
#include "report/text_table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace weft {
namespace {

// A step row as the interleaving has it: number, operation, place, function, source.
TextTable steps() {
  TextTable t;
  t.fit(2, {ColumnFit::Give::kPath, 24, false, 1, {}});
  t.fit(3, {ColumnFit::Give::kName, 20, true, 2, {}});
  t.fit(4, {ColumnFit::Give::kClip, 24, true, 0, {}});
  t.row({"1", "mutex-lock m", "/home/someone/project/src/queue/queue.cpp:12",
         "project::Queue<int>::push(int const&)", "| std::lock_guard<std::mutex> l(m_);  // the lock"});
  return t;
}

std::string rendered(const TextTable& t, std::size_t width) {
  std::string out;
  t.render(out, "  ", width);
  return out;
}

TEST(TextTable, ColumnsGiveWayInTheirOrder) {
  const TextTable t = steps();
  EXPECT_EQ(rendered(t, 0),
            "  1  mutex-lock m  /home/someone/project/src/queue/queue.cpp:12  "
            "project::Queue<int>::push(int const&)  | std::lock_guard<std::mutex> l(m_);  // the lock\n");
  // The source line is clipped, then left out.
  EXPECT_EQ(rendered(t, 140),
            "  1  mutex-lock m  /home/someone/project/src/queue/queue.cpp:12  "
            "project::Queue<int>::push(int const&)  | std::lock_guard<std::mutex> l(m...\n");
  EXPECT_EQ(rendered(t, 110),
            "  1  mutex-lock m  /home/someone/project/src/queue/queue.cpp:12  "
            "project::Queue<int>::push(int const&)\n");
  // Then the place's directories, as many as it takes.
  EXPECT_EQ(rendered(t, 100),
            "  1  mutex-lock m  .../someone/project/src/queue/queue.cpp:12  project::Queue<int>::push(int const&)\n");
  EXPECT_EQ(rendered(t, 80), "  1  mutex-lock m  .../queue/queue.cpp:12  project::Queue<int>::push(int const&)\n");
  // Then the function's parameter lists and qualifiers.
  EXPECT_EQ(rendered(t, 60), "  1  mutex-lock m  .../queue/queue.cpp:12  ...::push(...)\n");
  // Then the function goes: the file and line always stay.
  EXPECT_EQ(rendered(t, 40), "  1  mutex-lock m  .../queue/queue.cpp:12\n");
  EXPECT_EQ(t.least_width(2), 2 + 1 + 2 + 12 + 2 + 24);
}

TEST(TextTable, FreeLinesStartAtTheirColumnAsItIsShown) {
  TextTable t = steps();
  t.line("... 9 steps folded", 2);
  const std::string out = rendered(t, 60);
  EXPECT_NE(out.find("\n                   ... 9 steps folded\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace weft
