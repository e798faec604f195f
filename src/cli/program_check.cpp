#include "cli/program_check.hpp"

#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace weft::cli {
namespace {

#if defined(__x86_64__)
constexpr std::uint16_t kOurMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr std::uint16_t kOurMachine = EM_AARCH64;
#else
#error "weft runs programs of x86-64 or AArch64"
#endif

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case EM_386: return "i386";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_RISCV: return "RISC-V";
    case EM_PPC64: return "PowerPC64";
    case EM_PPC: return "PowerPC";
    case EM_S390: return "s390";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC64";
    case 258: return "LoongArch";  // EM_LOONGARCH, newer than some elf.h
    default: return "machine " + std::to_string(machine);
  }
}

const std::string& ours() {
  static const std::string text = "; weft runs 64-bit " + machine_name(kOurMachine) + " programs";
  return text;
}

// The start of a script, "#!/bin/sh", for its message.
std::string interpreter(const std::string& head) {
  std::string line = head.substr(0, head.find('\n'));
  if (line.size() > 40) line = line.substr(0, 40) + "...";
  for (char& c : line)
    if (c < ' ' || c == 0x7f) c = '?';
  return line;
}

// The 64-bit header's own problems: its layout, and its program headers against the file.
std::string header_problem(const std::string& path, const Elf64_Ehdr& h, std::uint64_t size,
                           std::ifstream& in) {
  if (h.e_type != ET_EXEC && h.e_type != ET_DYN)
    return path + " is " + (h.e_type == ET_REL ? "an object file" : "an ELF file") + " (ELF type " +
           std::to_string(h.e_type) + "), not a program: weft runs linked executables";
  if (h.e_phnum == 0 || h.e_phentsize != sizeof(Elf64_Phdr))
    return path + " is a damaged ELF: it has no program headers weft can read";
  const std::uint64_t headers_end = h.e_phoff + std::uint64_t{h.e_phnum} * h.e_phentsize;
  if (h.e_phoff > size || headers_end > size)
    return path + " is a truncated ELF: its program headers end at byte " +
           std::to_string(headers_end) + " but the file has " + std::to_string(size) + " bytes";
  std::vector<Elf64_Phdr> ph(h.e_phnum);
  in.seekg(static_cast<std::streamoff>(h.e_phoff));
  in.read(reinterpret_cast<char*>(ph.data()),
          static_cast<std::streamsize>(headers_end - h.e_phoff));
  std::uint64_t end = 0;
  for (const Elf64_Phdr& p : ph)
    if (p.p_type == PT_LOAD || p.p_type == PT_INTERP || p.p_type == PT_DYNAMIC)
      end = std::max(end, p.p_offset + p.p_filesz);
  if (end > size)
    return path + " is a truncated ELF: its segments end at byte " + std::to_string(end) +
           " but the file has " + std::to_string(size) + " bytes";
  return "";
}

}  // namespace

std::string program_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return path + " cannot be read";
  const auto size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  std::string head(std::min<std::uint64_t>(size, 128), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (head.starts_with("#!"))
    return path + " is a script (" + interpreter(head) +
           "), not an ELF program: weft runs compiled programs; give it the program the "
           "script runs";
  if (!head.starts_with("\x7f"
                        "ELF"))
    return path + " is not an ELF program (weft runs compiled programs)";
  if (size < EI_NIDENT) return path + " is a truncated ELF: " + std::to_string(size) + " bytes";
  const unsigned char cls = head[EI_CLASS], data = head[EI_DATA];
  // e_machine sits at byte 18 in either class, in the file's byte order.
  const auto b18 = static_cast<unsigned char>(size > 19 ? head[18] : 0);
  const auto b19 = static_cast<unsigned char>(size > 19 ? head[19] : 0);
  const std::uint16_t machine = data == ELFDATA2MSB ? (b18 << 8 | b19) : (b19 << 8 | b18);
  const std::string what = size > 19 ? " (" + machine_name(machine) + ")" : "";
  if (cls == ELFCLASS32) return path + " is a 32-bit ELF" + what + ours();
  if (cls != ELFCLASS64)
    return path + " is a damaged ELF: its class is " + std::to_string(cls) + ours();
  if (data != ELFDATA2LSB)
    return path + " is a " + (data == ELFDATA2MSB ? "big-endian" : "damaged") + " ELF" + what +
           ours();
  if (size < sizeof(Elf64_Ehdr))
    return path + " is a truncated ELF: " + std::to_string(size) +
           " bytes, shorter than its header";
  Elf64_Ehdr h;
  std::memcpy(&h, head.data(), sizeof h);
  if (h.e_machine != kOurMachine)
    return path + " is an ELF for " + machine_name(h.e_machine) + ours();
  return header_problem(path, h, size, in);
}

}  // namespace weft::cli
