#include "detect/fault_address.hpp"

namespace weft::detect {
namespace {

// Whether a one-byte-map opcode takes a ModRM byte (Intel SDM vol. 2, table A-2, 64-bit
// mode): the ALU ops' r/m forms, movsxd, imul, groups 1-5 and 11, test/xchg/mov, x87.
bool one_byte_has_modrm(std::uint8_t op) {
  if (op < 0x40) return (op & 7) < 4;
  return op == 0x63 || op == 0x69 || op == 0x6b || (op >= 0x80 && op <= 0x8f) || op == 0xc0 ||
         op == 0xc1 || op == 0xc6 || op == 0xc7 || (op >= 0xd0 && op <= 0xd3) ||
         (op >= 0xd8 && op <= 0xdf) || op == 0xf6 || op == 0xf7 || op == 0xfe || op == 0xff;
}

// The two-byte map (0F xx): all but these take a ModRM byte (table A-3).
bool two_byte_has_modrm(std::uint8_t op) {
  if ((op >= 0x30 && op <= 0x37) || (op >= 0x80 && op <= 0x8f) || (op >= 0xc8 && op <= 0xcf))
    return false;
  switch (op) {
    case 0x05:
    case 0x06:
    case 0x07:
    case 0x08:
    case 0x09:
    case 0x0b:
    case 0x0e:
    case 0x77:
    case 0xa0:
    case 0xa1:
    case 0xa2:
    case 0xa8:
    case 0xa9:
    case 0xaa: return false;
    default: return true;
  }
}

std::int64_t signed_bytes(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return n == 1 ? static_cast<std::int8_t>(v) : static_cast<std::int32_t>(v);
}

// The address of the ModRM (and SIB, displacement) at `p`; `rex` holds REX.X and REX.B.
bool modrm_address(const std::uint8_t* p, std::uint8_t rex, const X86Registers& r,
                   std::uint64_t* out) {
  const std::uint8_t mod = p[0] >> 6, rm = p[0] & 7;
  if (mod == 3) return false;  // a register operand
  std::size_t i = 1;
  std::uint64_t a = 0;
  if (rm == 4) {
    const std::uint8_t sib = p[i++];
    const unsigned index = ((sib >> 3) & 7) | ((rex & 2) ? 8 : 0);
    const unsigned base = (sib & 7) | ((rex & 1) ? 8 : 0);
    if (index != 4) a += r.gpr[index] << (sib >> 6);
    if ((sib & 7) == 5 && mod == 0) {
      a += signed_bytes(p + i, 4);
      *out = a;
      return true;
    }
    a += r.gpr[base];
  } else if (rm == 5 && mod == 0) {
    return false;  // RIP-relative
  } else {
    a = r.gpr[rm | ((rex & 1) ? 8 : 0)];
  }
  if (mod == 1) a += signed_bytes(p + i, 1);
  if (mod == 2) a += signed_bytes(p + i, 4);
  *out = a;
  return true;
}

}  // namespace

bool decoded_fault_address(const std::uint8_t* code, const X86Registers& r, std::uint64_t* out) {
  std::size_t i = 0;
  bool address32 = false;
  for (; i < 14; ++i) {  // legacy prefixes
    const std::uint8_t b = code[i];
    if (b == 0x64 || b == 0x65) return false;  // fs/gs: an offset from a base weft does not read
    if (b == 0x67) address32 = true;
    if (b != 0x66 && b != 0x67 && b != 0xf0 && b != 0xf2 && b != 0xf3 && b != 0x26 && b != 0x2e &&
        b != 0x36 && b != 0x3e)
      break;
  }
  std::uint8_t rex = 0;
  if ((code[i] & 0xf0) == 0x40) rex = code[i++];
  const std::uint8_t op = code[i++];
  bool has_modrm = false;
  if (op == 0xc5) {  // two-byte VEX: map 0F, no X or B
    i += 1;
    has_modrm = code[i++] != 0x77;  // vzeroupper/vzeroall
  } else if (op == 0xc4) {          // three-byte VEX: ~R ~X ~B in the first byte
    rex = static_cast<std::uint8_t>((~code[i] >> 5) & 3);
    i += 2;
    ++i;  // the opcode
    has_modrm = true;
  } else if (op == 0x0f) {
    const std::uint8_t op2 = code[i++];
    if (op2 == 0x38 || op2 == 0x3a) {
      ++i;
      has_modrm = true;
    } else {
      has_modrm = two_byte_has_modrm(op2);
    }
  } else if (op >= 0xa4 && op <= 0xaf && op != 0xa8 && op != 0xa9) {
    // String instructions: movs, cmps and lods read [rsi] (movs and cmps also [rdi]), stos
    // and scas [rdi]; the non-canonical one, if one is.
    const bool reads_rsi = op <= 0xa7 || op >= 0xac;
    const bool uses_rdi = op <= 0xa7 || op == 0xaa || op == 0xab || op >= 0xae;
    const std::uint64_t rsi = r.gpr[6], rdi = r.gpr[7];
    *out = reads_rsi && (!canonical_address(rsi) || !uses_rdi) ? rsi : rdi;
    if (address32) *out &= 0xffffffffu;
    return true;
  } else {
    has_modrm = op != 0x62 && one_byte_has_modrm(op);  // 0x62: EVEX, not decoded
  }
  if (!has_modrm || !modrm_address(code + i, rex, r, out)) return false;
  if (address32) *out &= 0xffffffffu;
  return true;
}

}  // namespace weft::detect
