#include "report/symbolizer.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sites.hpp"

namespace weft {
namespace {

using weft_test::Site;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(Symbolizer, FindsFileLineAndDemangledFunction) {
  Symbolizer sym;
  Site site = weft_test::named_site(0);
  Frame f = sym.symbolize(site.pc);
  EXPECT_EQ(f.function, "weft_test::named_site(int)");
  EXPECT_TRUE(ends_with(f.file, "/tests/report/sites.cpp")) << f.file;
  EXPECT_EQ(f.line, site.line);
  EXPECT_EQ(f.module, "report_test");
}

TEST(Symbolizer, DistinguishesSitesAndCaches) {
  Symbolizer sym;
  Site a = weft_test::named_site(0);
  Site b = weft_test::other_site();
  EXPECT_EQ(sym.symbolize(b.pc).function, "weft_test::other_site()");
  EXPECT_EQ(sym.symbolize(b.pc).line, b.line);
  EXPECT_EQ(sym.symbolize(a.pc).line, a.line);
  // The cache hands back the same frames.
  EXPECT_EQ(&sym.frames(a.pc), &sym.frames(a.pc));
}

TEST(Symbolizer, AnonymousNamespaceAndCLinkage) {
  Symbolizer sym;
  Site hidden = weft_test::anonymous_site();
  EXPECT_EQ(sym.symbolize(hidden.pc).function, "weft_test::(anonymous namespace)::hidden()");
  EXPECT_EQ(sym.symbolize(hidden.pc).line, hidden.line);
  Site c;
  c_site(&c);
  EXPECT_EQ(sym.symbolize(c.pc).function, "c_site");
  EXPECT_EQ(sym.symbolize(c.pc).line, c.line);
}

TEST(Symbolizer, InlinedFunctionAndItsCallSite) {
  Symbolizer sym;
  Site site = weft_test::inlined_site();
  const std::vector<Frame>& frames = sym.frames(site.pc);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].function, "weft_test::inlined_helper(int*)");
  EXPECT_EQ(frames[0].line, site.inner_line);
  EXPECT_TRUE(ends_with(frames[0].file, "sites.cpp")) << frames[0].file;
  EXPECT_EQ(frames[1].function, "weft_test::inlined_site()");
  EXPECT_EQ(frames[1].line, site.line);
  EXPECT_TRUE(ends_with(frames[1].file, "sites.cpp")) << frames[1].file;
}

TEST(Symbolizer, InlinedFunctionWithInternalLinkage) {
  // gcc gives such functions no linkage name: the name is rebuilt from enclosing scopes.
  Symbolizer sym;
  Site site = weft_test::anonymous_inlined_site();
  const std::vector<Frame>& frames = sym.frames(site.pc);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].function.rfind("weft_test::(anonymous namespace)::inlined_hidden", 0), 0u)
      << frames[0].function;
  EXPECT_EQ(frames[0].line, site.inner_line);
  EXPECT_EQ(frames[1].function, "weft_test::anonymous_inlined_site()");
  EXPECT_EQ(frames[1].line, site.line);
}

TEST(Symbolizer, InlinedLambdaIsNamedByItsEnclosingFunction) {
  // gcc: "weft_test::lambda_site::{lambda}::operator()" (from DWARF scopes);
  // clang: "weft_test::lambda_site()::$_0::operator()() const" (its linkage name).
  Symbolizer sym;
  Site site = weft_test::lambda_site();
  const std::vector<Frame>& frames = sym.frames(site.pc);
  ASSERT_GE(frames.size(), 2u);
  EXPECT_EQ(frames[0].function.rfind("weft_test::lambda_site", 0), 0u) << frames[0].function;
  EXPECT_NE(frames[0].function.find("::operator()"), std::string::npos) << frames[0].function;
  EXPECT_EQ(frames[0].line, site.line);
  EXPECT_EQ(frames.back().function, "weft_test::lambda_site()");
}

TEST(Symbolizer, SharedLibraryModule) {
  Symbolizer sym;
  Frame f = sym.symbolize(weft_test::libc_pc());
  EXPECT_EQ(f.module.rfind("libc.so", 0), 0u) << f.module;
  EXPECT_FALSE(f.function.empty());  // .dynsym names it even without debug info
}

TEST(Symbolizer, UnknownAddressesGiveEmptyFields) {
  Symbolizer sym;
  auto heap = std::make_unique<int>(1);
  int on_stack = 0;
  for (std::uintptr_t pc : {std::uintptr_t{0}, std::uintptr_t{1}, std::uintptr_t{0x10},
                            std::uintptr_t{0xdeadbeef}, ~std::uintptr_t{0},
                            reinterpret_cast<std::uintptr_t>(heap.get()),
                            reinterpret_cast<std::uintptr_t>(&on_stack)}) {
    Frame f = sym.symbolize(pc);
    EXPECT_EQ(f.function, "") << std::hex << pc;
    EXPECT_EQ(f.file, "") << std::hex << pc;
    EXPECT_EQ(f.line, 0) << std::hex << pc;
    EXPECT_EQ(f.module, "") << std::hex << pc;
    EXPECT_TRUE(sym.frames_at(pc).empty()) << std::hex << pc;
  }
  // Still works after misses.
  EXPECT_EQ(sym.symbolize(weft_test::other_site().pc).function, "weft_test::other_site()");
}

TEST(Symbolizer, SourceLineTextIsReadOnce) {
  Symbolizer sym;
  Site site = weft_test::named_site(0);
  Frame f = sym.symbolize(site.pc);
  const std::string& text = sym.source_line(f.file, f.line);
  EXPECT_EQ(text.rfind("std::uintptr_t pc = return_address();", 0), 0u) << text;
  EXPECT_EQ(&text, &sym.source_line(f.file, f.line));
  EXPECT_EQ(sym.source_line(f.file, 1000000), "");
  EXPECT_EQ(sym.source_line("/nonexistent/file.cpp", 3), "");
  EXPECT_EQ(sym.source_line("", 3), "");
  EXPECT_EQ(sym.source_line(f.file, 0), "");
}

}  // namespace
}  // namespace weft
