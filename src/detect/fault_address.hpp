#pragma once
// The address a faulting x86-64 instruction accessed, decoded from its bytes: the kernel
// gives none for a general protection fault (an access through a non-canonical address,
// such as 0xabab... read from freed memory, or a misaligned SSE access), yet that address
// is what a person needs to see. Async-signal-safe.
#include <cstdint>

namespace weft::detect {

struct X86Registers {
  std::uint64_t gpr[16];  // in the encoding's order: rax rcx rdx rbx rsp rbp rsi rdi r8..r15
};

// The memory operand's address of the instruction at `code` (at least 15 readable bytes);
// false when the instruction has none weft decodes (RIP-relative ones, whose addresses are
// canonical, EVEX ones, an fs/gs segment).
bool decoded_fault_address(const std::uint8_t* code, const X86Registers& regs, std::uint64_t* out);

// Whether `a` is canonical with 48-bit virtual addresses (its 17 top bits all equal).
constexpr bool canonical_address(std::uint64_t a) {
  const std::uint64_t top = a >> 47;
  return top == 0 || top == 0x1ffff;
}

}  // namespace weft::detect
