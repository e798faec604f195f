// The address a faulting instruction used, decoded from its bytes (the kernel gives none
// for a general protection fault). Encodings checked against `objdump -d`.
#include "detect/fault_address.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <initializer_list>

namespace weft::detect {
namespace {

constexpr std::uint64_t kGarbage = 0xabababababababab;

struct Decoded {
  bool ok;
  std::uint64_t address;
};

Decoded decode(std::initializer_list<std::uint8_t> bytes, const X86Registers& r) {
  std::array<std::uint8_t, 16> code{};  // padded with zeros: 15 bytes are always readable
  std::size_t i = 0;
  for (std::uint8_t b : bytes) code[i++] = b;
  Decoded d{false, 0};
  d.ok = decoded_fault_address(code.data(), r, &d.address);
  return d;
}

X86Registers registers() {
  X86Registers r{};
  for (int i = 0; i < 16; ++i) r.gpr[i] = 0x1000 * (i + 1);
  return r;
}

TEST(FaultAddress, BaseAndDisplacement) {
  X86Registers r = registers();
  r.gpr[0] = kGarbage;  // rax
  EXPECT_EQ(decode({0x48, 0x8b, 0x40, 0x08}, r).address, kGarbage + 8);  // mov rax,[rax+0x8]
  EXPECT_EQ(decode({0x8b, 0x00}, r).address, kGarbage);                  // mov eax,[rax]
  const Decoded far = decode({0x48, 0x8b, 0x80, 0x00, 0x01, 0x00, 0x00}, r);  // [rax+0x100]
  EXPECT_TRUE(far.ok);
  EXPECT_EQ(far.address, kGarbage + 0x100);
  EXPECT_EQ(decode({0x48, 0x8b, 0x40, 0xf8}, r).address, kGarbage - 8);  // [rax-0x8]
}

TEST(FaultAddress, RexExtendsBaseAndIndex) {
  X86Registers r = registers();
  r.gpr[12] = kGarbage;  // r12
  // mov rax,[r12+0x10]: r12 as a base needs a SIB byte (rm=100)
  EXPECT_EQ(decode({0x49, 0x8b, 0x44, 0x24, 0x10}, r).address, kGarbage + 0x10);
  // mov eax,[rbx+r9*4]: REX.X, scale 4
  EXPECT_EQ(decode({0x42, 0x8b, 0x04, 0x8b}, r).address, r.gpr[3] + r.gpr[9] * 4);
  // mov [r13+0x0],rax: r13 as a base with mod=00 needs a displacement
  r.gpr[13] = kGarbage;
  EXPECT_EQ(decode({0x49, 0x89, 0x45, 0x00}, r).address, kGarbage);
}

TEST(FaultAddress, SibWithoutBase) {
  X86Registers r = registers();
  // mov eax,[rcx*8+0x20]
  EXPECT_EQ(decode({0x8b, 0x04, 0xcd, 0x20, 0x00, 0x00, 0x00}, r).address, r.gpr[1] * 8 + 0x20);
}

TEST(FaultAddress, PrefixesTwoByteAndVexOpcodes) {
  X86Registers r = registers();
  r.gpr[7] = kGarbage;  // rdi
  EXPECT_EQ(decode({0x66, 0x89, 0x07}, r).address, kGarbage);              // mov [rdi],ax
  EXPECT_EQ(decode({0xf0, 0x48, 0x0f, 0xb1, 0x17}, r).address, kGarbage);  // lock cmpxchg [rdi],rdx
  EXPECT_EQ(decode({0x0f, 0xb6, 0x47, 0x03}, r).address, kGarbage + 3);    // movzx eax,[rdi+3]
  EXPECT_EQ(decode({0x0f, 0x28, 0x07}, r).address, kGarbage);              // movaps xmm0,[rdi]
  EXPECT_EQ(decode({0xc5, 0xf8, 0x28, 0x07}, r).address, kGarbage);        // vmovaps xmm0,[rdi]
  r.gpr[8] = kGarbage + 64;                                                 // r8
  // vmovdqu ymm0,[r8] (three-byte VEX, ~B clear: r8)
  EXPECT_EQ(decode({0xc4, 0xc1, 0x7e, 0x6f, 0x00}, r).address, kGarbage + 64);
  EXPECT_EQ(decode({0x67, 0x8b, 0x07}, r).address, kGarbage & 0xffffffffu);  // mov eax,[edi]
}

TEST(FaultAddress, StringInstructionsUseRsiOrRdi) {
  X86Registers r = registers();
  r.gpr[6] = kGarbage;  // rsi
  EXPECT_EQ(decode({0xf3, 0xa4}, r).address, kGarbage);        // rep movsb: the bad source
  EXPECT_EQ(decode({0xf3, 0x48, 0xab}, r).address, r.gpr[7]);  // rep stosq: [rdi]
  EXPECT_EQ(decode({0xac}, r).address, kGarbage);              // lodsb
}

TEST(FaultAddress, WhatIsNotDecodedSaysSo) {
  const X86Registers r = registers();
  EXPECT_FALSE(decode({0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00}, r).ok);  // RIP-relative
  EXPECT_FALSE(decode({0x48, 0x89, 0xc7}, r).ok);                          // mov rdi,rax
  EXPECT_FALSE(decode({0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, r).ok);  // mov rax,fs:0x28
  EXPECT_FALSE(decode({0x62, 0xf1, 0x7c, 0x48, 0x28, 0x07}, r).ok);        // EVEX
  EXPECT_FALSE(decode({0x90}, r).ok);                                      // nop
}

TEST(FaultAddress, Canonical) {
  EXPECT_TRUE(canonical_address(0));
  EXPECT_TRUE(canonical_address(0x00007fffffffffff));
  EXPECT_TRUE(canonical_address(0xffff800000000000));
  EXPECT_FALSE(canonical_address(0x0000800000000000));
  EXPECT_FALSE(canonical_address(kGarbage));
}

}  // namespace
}  // namespace weft::detect
