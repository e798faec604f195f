// The elfutils side of the Symbolizer (symbolizer_backend.hpp): built into its own shared
// object, libweft_symbolizer.so, which the Symbolizer loads at its first lookup.
#include "report/symbolizer_backend.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <unordered_map>

namespace weft {
namespace {

std::string demangle(const char* name) {
  if (name == nullptr) return {};
  // Only mangled names: __cxa_demangle would read "f" as the type float.
  if (std::strncmp(name, "_Z", 2) != 0) return name;
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string result(out);
  std::free(out);
  return result;
}

// clang records headers as "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/
// c++/12/bits/stl_algo.h": fold the dot-dots so that people and is_user_frame see
// "/usr/include/c++/12/bits/stl_algo.h".
std::string normal_path(const char* path) {
  if (path == nullptr || *path == '\0') return {};
  if (std::strstr(path, "/.") == nullptr) return path;
  return std::filesystem::path(path).lexically_normal().string();
}

std::string basename_of(const char* path) {
  if (path == nullptr) return {};
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

// The raw linkage name, "" when there is none. Follows abstract origins and
// specifications, which is where inlined and out-of-class definitions keep their names.
std::string die_linkage_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, at, &attr) != nullptr) {
      if (const char* s = dwarf_formstring(&attr)) return s;
    }
  }
  return {};
}

bool is_mangled(const std::string& name) { return name.starts_with("_Z"); }

// The DIE that declares a function: inlined instances and out-of-line definitions point
// to it through DW_AT_abstract_origin and DW_AT_specification.
Dwarf_Die declaration_of(Dwarf_Die die) {
  for (int hops = 0; hops < 8; ++hops) {
    Dwarf_Attribute attr;
    Dwarf_Die next;
    if ((dwarf_attr(&die, DW_AT_abstract_origin, &attr) == nullptr &&
         dwarf_attr(&die, DW_AT_specification, &attr) == nullptr) ||
        dwarf_formref_die(&attr, &next) == nullptr) {
      break;
    }
    die = next;
  }
  return die;
}

bool has_call_operator(Dwarf_Die* type) {
  Dwarf_Die child;
  if (dwarf_child(type, &child) != 0) return false;
  do {
    const char* name = dwarf_diename(&child);
    if (dwarf_tag(&child) == DW_TAG_subprogram && name && std::strcmp(name, "operator()") == 0) {
      return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

// "ns::(anonymous namespace)::Class::name", "main::{lambda}::operator()": the name of a
// function or scope qualified by the scopes that enclose its declaration, for functions
// without a linkage name (gcc gives none to lambdas' operator() or to functions with
// internal linkage; C has none). No parameter list: DWARF names carry none.
std::string die_qualified_name(Dwarf_Die* die, int depth = 0) {
  Dwarf_Die decl = declaration_of(*die);
  std::string name;
  switch (dwarf_tag(&decl)) {
    case DW_TAG_namespace:
      name = dwarf_diename(&decl) ? dwarf_diename(&decl) : "(anonymous namespace)";
      break;
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
      name = dwarf_diename(&decl)       ? dwarf_diename(&decl)
             : has_call_operator(&decl) ? "{lambda}"
                                        : "{unnamed type}";
      break;
    default:
      if (const char* n = dwarf_diename(&decl)) name = n;
      break;
  }
  if (name.empty() || depth > 16) return name;
  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes_die(&decl, &scopes);
  for (int i = 1; i < n; ++i) {
    switch (dwarf_tag(&scopes[i])) {
      case DW_TAG_namespace:
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
      case DW_TAG_subprogram: {  // a local class's function
        std::string outer = die_qualified_name(&scopes[i], depth + 1);
        if (!outer.empty()) name = outer + "::" + name;
        i = n;  // the enclosing scope qualifies itself
        break;
      }
      default: break;
    }
  }
  std::free(scopes);
  return name;
}

// Best name first. A mangled name says which overload: the DIE's linkage name, or for the
// out-of-line function the ELF symbol (only it: the symbol is the containing function).
// An unmangled linkage name or symbol may be an internal alias (glibc's __GI__IO_puts for
// _IO_puts), so the source name, qualified by its scopes, comes before them.
std::string function_name(Dwarf_Die* die, bool outermost, const std::string& raw_symbol,
                          const std::string& symbol) {
  std::string linkage = die_linkage_name(die);
  if (is_mangled(linkage)) return demangle(linkage.c_str());
  if (outermost && is_mangled(raw_symbol)) return symbol;
  std::string name = die_qualified_name(die);
  if (!name.empty()) return name;
  if (!linkage.empty()) return linkage;
  return outermost ? symbol : std::string();
}

// Descends from `parent` along the code scopes that contain pc, appending them outermost
// first. Namespaces and classes are searched but not recorded. (Not dwarf_getscopes: in
// libdw 0.188 it fails with "no address value" on clang's DWARF 5 inline chains.)
bool code_scopes(Dwarf_Die* parent, Dwarf_Addr pc, std::vector<Dwarf_Die>& path, int depth) {
  Dwarf_Die child;
  if (depth > 64 || dwarf_child(parent, &child) != 0) return false;
  do {
    switch (dwarf_tag(&child)) {
      case DW_TAG_subprogram:
      case DW_TAG_inlined_subroutine:
      case DW_TAG_lexical_block:
      case DW_TAG_entry_point:
        if (dwarf_haspc(&child, pc) == 1) {
          path.push_back(child);
          code_scopes(&child, pc, path, depth + 1);
          return true;
        }
        break;
      case DW_TAG_namespace:
      case DW_TAG_class_type:
      case DW_TAG_structure_type:
      case DW_TAG_union_type:
      case DW_TAG_module:
        if (code_scopes(&child, pc, path, depth + 1)) return true;
        break;
      default: break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

// Calls f(cudie) for each compile unit of `dw`.
template <typename F>
void for_each_compile_unit(Dwarf* dw, F f) {
  Dwarf_CU* cu = nullptr;
  Dwarf_CU* next = nullptr;
  Dwarf_Half version = 0;
  std::uint8_t unit_type = 0;
  Dwarf_Die cudie;
  while (dwarf_get_units(dw, cu, &next, &version, &unit_type, &cudie, nullptr) == 0) {
    cu = next;
    if (dwarf_tag(&cudie) == DW_TAG_compile_unit) f(cudie);
  }
}

// The static address a variable's location names (DW_OP_addr, or DWARF 5's indexed
// DW_OP_addrx), unbiased; false for any other location (a local, a thread-local).
bool static_address(Dwarf_Die* var, Dwarf_Addr* out) {
  Dwarf_Attribute attr;
  Dwarf_Op* ops = nullptr;
  std::size_t n = 0;
  if (dwarf_attr(var, DW_AT_location, &attr) == nullptr ||
      dwarf_getlocation(&attr, &ops, &n) != 0 || n != 1)
    return false;
  if (ops[0].atom == DW_OP_addr) {
    *out = ops[0].number;
    return true;
  }
  Dwarf_Attribute indexed;
  return (ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
         dwarf_getlocation_attr(&attr, &ops[0], &indexed) == 0 &&
         dwarf_formaddr(&indexed, out) == 0;
}

// Every variable with a static address under `parent` (namespaces' and functions' statics
// too), by that address.
void collect_variables(Dwarf_Die* parent, std::unordered_map<Dwarf_Addr, Dwarf_Off>& out,
                       int depth) {
  Dwarf_Die child;
  if (depth > 32 || dwarf_child(parent, &child) != 0) return;
  do {
    switch (dwarf_tag(&child)) {
      case DW_TAG_variable: {
        Dwarf_Addr a = 0;
        if (static_address(&child, &a)) out.try_emplace(a, dwarf_dieoffset(&child));
        break;
      }
      case DW_TAG_namespace:
      case DW_TAG_subprogram:
      case DW_TAG_lexical_block: collect_variables(&child, out, depth + 1); break;
      default: break;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
}

bool type_of(Dwarf_Die* die, Dwarf_Die* type) {
  Dwarf_Attribute attr;
  return dwarf_attr_integrate(die, DW_AT_type, &attr) != nullptr &&
         dwarf_formref_die(&attr, type) != nullptr;
}

// The type under typedefs and cv-qualifiers.
void strip_qualifiers(Dwarf_Die* type) {
  for (int hops = 0; hops < 16; ++hops) {
    const int tag = dwarf_tag(type);
    if ((tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
         tag != DW_TAG_atomic_type && tag != DW_TAG_restrict_type) ||
        !type_of(type, type))
      return;
  }
}

// A type of the C++ library (std::atomic<int>, std::mutex): its members are the
// library's, not the program's, so a path stops at it.
bool library_type(Dwarf_Die* type) {
  const std::string name = die_qualified_name(type);
  return name.starts_with("std::") || name.starts_with("__gnu_cxx::") || name.starts_with("_");
}

// One step of member_path() into a structure: the member at *offset, appended to `path`
// (".balance"; nothing for a base class), `type` and *offset now its own. False when no
// member it can name holds that byte, or the type is the library's.
bool into_member(Dwarf_Die* type, Dwarf_Word* offset, std::string* path) {
  if (library_type(type)) return false;
  // A lambda's captures: gcc names them __x, for the variable x they hold.
  const bool closure = dwarf_diename(type) == nullptr && has_call_operator(type);
  // Each member with its offset and size; a member whose type the debug information only
  // declares (clang leaves out std::condition_variable's definition) reaches up to the
  // next member, or the object's end.
  struct Member {
    Dwarf_Die die, type;
    Dwarf_Word at = 0, size = 0;
  };
  std::vector<Member> members;
  Dwarf_Die child;
  if (dwarf_child(type, &child) == 0) do {
      const int tag = dwarf_tag(&child);
      Dwarf_Attribute attr;
      Member m{child, {}, 0, 0};
      if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
          dwarf_formudata(dwarf_attr(&child, DW_AT_data_member_location, &attr), &m.at) != 0 ||
          !type_of(&child, &m.type))
        continue;
      if (dwarf_aggregate_size(&m.type, &m.size) != 0) m.size = 0;
      members.push_back(m);
    } while (dwarf_siblingof(&child, &child) == 0);
  Dwarf_Word whole = 0;
  if (dwarf_aggregate_size(type, &whole) != 0) whole = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    Member& m = members[i];
    if (m.size == 0) {
      const Dwarf_Word end = i + 1 < members.size() ? members[i + 1].at : whole;
      m.size = end > m.at ? end - m.at : 0;
    }
    if (*offset < m.at || *offset - m.at >= m.size) continue;
    if (dwarf_tag(&m.die) == DW_TAG_member) {
      const char* name = dwarf_diename(&m.die);
      if (name == nullptr) return false;  // an anonymous member: stop here
      if (closure && std::strncmp(name, "__", 2) == 0) name += 2;
      *path += std::string(".") + name;
    }
    *offset -= m.at;
    *type = m.type;
    return true;
  }
  return false;
}

// One step of member_path() into an array: the element at *offset ("[2]", "[1][0]" for
// each dimension), `type` and *offset now the element's.
bool into_element(Dwarf_Die* type, Dwarf_Word* offset, std::string* path) {
  Dwarf_Die element, range;
  Dwarf_Word size = 0;
  if (!type_of(type, &element) || dwarf_aggregate_size(&element, &size) != 0 || size == 0)
    return false;
  // Each dimension's count, outermost first: int m[2][3] is 2 rows of 3.
  std::vector<Dwarf_Word> counts;
  if (dwarf_child(type, &range) == 0) do {
      Dwarf_Attribute attr;
      Dwarf_Word count = 0, upper = 0;
      if (dwarf_tag(&range) != DW_TAG_subrange_type) continue;
      if (dwarf_formudata(dwarf_attr(&range, DW_AT_count, &attr), &count) != 0)
        count = dwarf_formudata(dwarf_attr(&range, DW_AT_upper_bound, &attr), &upper) == 0
                    ? upper + 1
                    : 0;
      counts.push_back(count);
    } while (dwarf_siblingof(&range, &range) == 0);
  Dwarf_Word stride = size;
  for (std::size_t i = 1; i < counts.size(); ++i) stride *= std::max<Dwarf_Word>(counts[i], 1);
  for (std::size_t i = 0; i < std::max<std::size_t>(counts.size(), 1); ++i) {
    *path += "[" + std::to_string(*offset / stride) + "]";
    *offset %= stride;
    if (i + 1 < counts.size()) stride /= std::max<Dwarf_Word>(counts[i + 1], 1);
  }
  *type = element;
  return true;
}

// Appends to `path` what lies at `offset` in an object of `type`: ".member", "[3]",
// recursively ("[0].balance"), then "+N" for bytes inside no member it can name.
// *reached (when given): the type of what lies exactly there (unset when the path ends
// inside a member it cannot name).
void member_path(Dwarf_Die type, Dwarf_Word offset, std::string* path,
                 Dwarf_Die* reached = nullptr) {
  for (int depth = 0; depth < 16; ++depth) {
    strip_qualifiers(&type);
    const int tag = dwarf_tag(&type);
    const bool deeper = tag == DW_TAG_structure_type || tag == DW_TAG_class_type
                            ? into_member(&type, &offset, path)
                            : tag == DW_TAG_array_type && into_element(&type, &offset, path);
    if (!deeper) break;
  }
  if (offset != 0)
    *path += "+" + std::to_string(offset);
  else if (reached != nullptr)
    *reached = type;
}

// A variable's name, which an inlined instance keeps in its abstract origin.
std::string variable_name(Dwarf_Die* var) {
  Dwarf_Attribute attr;
  const char* name = dwarf_formstring(dwarf_attr_integrate(var, DW_AT_name, &attr));
  return name != nullptr ? name : "";
}

// The single operation of a location at `pc` (unbiased), false when it is anything else.
bool single_op(Dwarf_Attribute* attr, Dwarf_Addr pc, Dwarf_Op* out) {
  Dwarf_Op* ops = nullptr;
  std::size_t n = 0;
  if (dwarf_getlocation_addr(attr, pc, &ops, &n, 1) != 1 || n != 1) return false;
  *out = ops[0];
  return true;
}

// Where a frame's locals are: its frame base and its stack pointer (0: unknown).
struct FrameAddresses {
  std::uintptr_t base = 0, sp = 0;
};

#if defined(__x86_64__)
constexpr unsigned kStackPointer = 7, kFramePointer = 6;  // DWARF's rsp and rbp
#endif

// The frame's stack pointer at `pc` (absolute, in `mod`) from its canonical frame
// address, as the call frame information's rule for the CFA there says (CFA = rsp + N).
std::uintptr_t stack_pointer(Dwfl_Module* mod, Dwarf_Addr pc, std::uintptr_t cfa) {
#if defined(__x86_64__)
  std::uintptr_t sp = 0;
  for (bool eh : {true, false}) {
    Dwarf_Addr bias = 0;
    Dwarf_CFI* cfi = eh ? dwfl_module_eh_cfi(mod, &bias) : dwfl_module_dwarf_cfi(mod, &bias);
    Dwarf_Frame* frame = nullptr;
    if (cfi == nullptr || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) continue;
    Dwarf_Op* ops = nullptr;
    std::size_t n = 0;
    if (dwarf_frame_cfa(frame, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_bregx &&
        ops[0].number == kStackPointer)
      sp = cfa - static_cast<std::uintptr_t>(static_cast<std::int64_t>(ops[0].number2));
    std::free(frame);
    if (sp != 0) return sp;
  }
#else
  (void)mod, (void)pc, (void)cfa;
#endif
  return 0;
}

// A function's frame base at `pc` (unbiased): gcc's is the CFA itself; clang's the frame
// pointer, which an x86-64 prologue sets 16 bytes below it, or without one the stack
// pointer.
std::uintptr_t frame_base(Dwarf_Die* function, Dwarf_Addr pc, std::uintptr_t cfa,
                          std::uintptr_t sp) {
  Dwarf_Attribute attr;
  Dwarf_Op op;
  if (dwarf_attr(function, DW_AT_frame_base, &attr) == nullptr || !single_op(&attr, pc, &op))
    return 0;
  if (op.atom == DW_OP_call_frame_cfa) return cfa;
#if defined(__x86_64__)
  if (op.atom == DW_OP_reg0 + kFramePointer) return cfa - 16;
  if (op.atom == DW_OP_reg0 + kStackPointer) return sp;
  if (op.atom == DW_OP_breg0 + kStackPointer && sp != 0)
    return sp + static_cast<std::uintptr_t>(static_cast<std::int64_t>(op.number));
#endif
  return 0;
}

// Where a variable located by `op` lives in a frame; 0 when that is not in its frame.
std::uintptr_t frame_slot(const Dwarf_Op& op, const FrameAddresses& frame) {
  const auto offset = static_cast<std::uintptr_t>(static_cast<std::int64_t>(op.number));
  if (op.atom == DW_OP_fbreg && frame.base != 0) return frame.base + offset;
#if defined(__x86_64__)
  if (op.atom == DW_OP_breg0 + kStackPointer && frame.sp != 0) return frame.sp + offset;
#endif
  return 0;
}

// The local of `scope` (a function or a block in it) at `address`, with its member path.
std::string local_in(Dwarf_Die* scope, Dwarf_Addr pc, const FrameAddresses& frame,
                     std::uintptr_t address) {
  Dwarf_Die child;
  if (dwarf_child(scope, &child) != 0) return "";
  do {
    const int tag = dwarf_tag(&child);
    Dwarf_Attribute attr;
    Dwarf_Op op;
    Dwarf_Die type;
    Dwarf_Word size = 0;
    if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
        dwarf_attr(&child, DW_AT_location, &attr) == nullptr || !single_op(&attr, pc, &op) ||
        !type_of(&child, &type) || dwarf_aggregate_size(&type, &size) != 0)
      continue;
    const std::uintptr_t at = frame_slot(op, frame);
    if (at == 0 || address < at || address - at >= size) continue;
    std::string name = variable_name(&child);
    if (name.empty()) return "";
    member_path(type, address - at, &name);
    return name;
  } while (dwarf_siblingof(&child, &child) == 0);
  return "";
}

bool same_build_id(Dwfl_Module* mod, int fd) {
  const unsigned char* want = nullptr;
  GElf_Addr vaddr = 0;
  int want_len = dwfl_module_build_id(mod, &want, &vaddr);
  if (want_len <= 0) return true;  // nothing to check against
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  if (elf == nullptr) return false;
  const void* got = nullptr;
  ssize_t got_len = dwelf_elf_gnu_build_id(elf, &got);
  bool same = got_len == want_len && std::memcmp(got, want, want_len) == 0;
  elf_end(elf);
  return same;
}

// Separate debug info, found locally only: by build ID under /usr/lib/debug, then by
// .gnu_debuglink next to the file (checked by build ID). Unlike
// dwfl_standard_find_debuginfo this never asks a debuginfod server: a report must not
// wait on the network because DEBUGINFOD_URLS happens to be set.
int find_debuginfo_locally(Dwfl_Module* mod, void** userdata, const char* modname, GElf_Addr base,
                           const char* file_name, const char* debuglink, GElf_Word crc,
                           char** debuginfo_file_name) {
  int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink, crc,
                                        debuginfo_file_name);
  if (fd >= 0 || debuglink == nullptr || file_name == nullptr) return fd;
  std::string dir(file_name);
  std::size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
  for (const std::string& candidate : {dir + "/" + debuglink, dir + "/.debug/" + debuglink,
                                       "/usr/lib/debug" + dir + "/" + debuglink}) {
    if (candidate == file_name) continue;
    fd = open(candidate.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (same_build_id(mod, fd)) {
      *debuginfo_file_name = strdup(candidate.c_str());
      return fd;
    }
    close(fd);
  }
  return -1;
}

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_debuginfo_locally,
    .section_address = nullptr,
    .debuginfo_path = nullptr,
};

}  // namespace

class DwSymbolizer final : public SymbolizerBackend {
 public:
  DwSymbolizer();
  ~DwSymbolizer() override;
  const std::vector<Frame>& frames_at(std::uintptr_t address) override;
  std::string variable(std::uintptr_t address) override;
  std::string local_variable(std::uintptr_t address, std::uintptr_t pc, std::uintptr_t entry,
                             std::uintptr_t cfa) override;
  std::vector<PointerLocal> pointer_locals(std::uintptr_t pc, std::uintptr_t entry,
                                           std::uintptr_t cfa, const WordReader& read) override;
  std::string pointee_path(std::size_t pointee, std::uint64_t offset) override;
  std::size_t global_pointee(std::uintptr_t address, bool* reference) override;
  std::vector<CodeRange> find_code(const std::vector<std::string>& patterns,
                                   std::vector<bool>* matched) override;
  std::vector<CodeRange> find_variables(const std::string& pattern) override;

 private:
  struct Impl;
  struct FrameScopes;
  bool frame_scopes(std::uintptr_t pc, std::uintptr_t entry, std::uintptr_t cfa, FrameScopes* out);
  // variable() under the lock; *pointee (when given): the type handle of what the global
  // pointer or reference exactly at `address` points to, *reference which it is.
  std::string global_at(std::uintptr_t address, std::size_t* pointee, bool* reference);
  // Whether `type` is a pointer or reference; then p's pointee (a handle of the type it
  // points to, `code` an address in the module whose debug information it is from) and
  // reference are set.
  bool pointer_to(Dwarf_Die type, Dwarf_Addr code, PointerLocal* p);
  // Appends `name` when `type` is a pointer or reference (`value`: what it held).
  void add_pointer(const std::string& name, Dwarf_Die type, std::uintptr_t value, Dwarf_Addr code,
                   std::vector<PointerLocal>* out);
  std::unique_ptr<Impl> impl_;
};

struct DwSymbolizer::Impl {
  std::mutex mutex;  // lookups may come from several threads (weft::Bug::trace())
  Dwfl* dwfl = nullptr;
  bool started = false;    // dwfl was attempted (once)
  bool refreshed = false;  // mappings were re-read once after a miss (a late dlopen)
  std::unordered_map<std::uintptr_t, std::vector<Frame>> cache;
  // Address ranges of each module's compile units, for modules without .debug_aranges
  // (clang does not emit it by default, and libdw 0.188 finds no CU without it).
  struct CuRange {
    Dwarf_Addr low, high;
    Dwarf_Die cu;
  };
  std::unordered_map<Dwfl_Module*, std::vector<CuRange>> cu_ranges;
  // Each module's variables with a static address (unbiased), found at the first name asked.
  std::unordered_map<Dwfl_Module*, std::unordered_map<Dwarf_Addr, Dwarf_Off>> variables;
  // The types pointer_locals() found, by handle - 1: a code address of their module and
  // their DIE's offset (a DIE itself dies with its module when the mappings are re-read).
  std::vector<std::pair<Dwarf_Addr, Dwarf_Off>> pointees;

  ~Impl() {
    if (dwfl != nullptr) dwfl_end(dwfl);
  }

  bool report_mappings() {
    dwfl_report_begin(dwfl);
    int rc = dwfl_linux_proc_report(dwfl, getpid());
    // End the report even on error: the modules read so far stay usable.
    return dwfl_report_end(dwfl, nullptr, nullptr) == 0 && rc == 0;
  }

  bool ready() {
    if (!started) {
      started = true;
      dwfl = dwfl_begin(&kCallbacks);
      if (dwfl != nullptr) report_mappings();
    }
    return dwfl != nullptr;
  }

  // dwfl_addrmodule can answer with the nearest module below an address that no module
  // covers (the stack, past the last mapping): check the module's bounds.
  Dwfl_Module* covering(Dwarf_Addr addr) {
    Dwfl_Module* mod = dwfl_addrmodule(dwfl, addr);
    Dwarf_Addr low = 0, high = 0;
    if (mod == nullptr ||
        dwfl_module_info(mod, nullptr, &low, &high, nullptr, nullptr, nullptr, nullptr) ==
            nullptr ||
        addr < low || addr >= high) {
      return nullptr;
    }
    return mod;
  }

  Dwfl_Module* module_at(Dwarf_Addr addr) {
    Dwfl_Module* mod = covering(addr);
    if (mod == nullptr && !refreshed) {
      refreshed = true;
      cu_ranges.clear();  // keyed by modules the new report may have freed
      variables.clear();
      report_mappings();
      mod = covering(addr);
    }
    return mod;
  }

  const std::vector<CuRange>& ranges_of(Dwfl_Module* mod, Dwarf* dw) {
    auto [it, inserted] = cu_ranges.try_emplace(mod);
    if (!inserted) return it->second;
    std::vector<CuRange>& ranges = it->second;
    for_each_compile_unit(dw, [&](Dwarf_Die& cudie) {
      Dwarf_Addr base = 0, start = 0, end = 0;
      ptrdiff_t offset = 0;
      while ((offset = dwarf_ranges(&cudie, offset, &base, &start, &end)) > 0) {
        if (start < end) ranges.push_back({start, end, cudie});
      }
    });
    return ranges;
  }

  // The debug information's variable at `address` (absolute), false when there is none.
  bool variable_die(Dwfl_Module* mod, Dwarf_Addr address, Dwarf_Die* out) {
    Dwarf_Addr bias = 0;
    Dwarf* dw = dwfl_module_getdwarf(mod, &bias);
    if (dw == nullptr) return false;
    auto [it, inserted] = variables.try_emplace(mod);
    if (inserted) {
      auto& found = it->second;  // (clang 14 captures no structured binding)
      for_each_compile_unit(dw, [&](Dwarf_Die& cu) { collect_variables(&cu, found, 0); });
    }
    auto found = it->second.find(address - bias);
    return found != it->second.end() && dwarf_offdie(dw, found->second, out) != nullptr;
  }

  // The compile unit containing addr: libdw's lookup (aranges), else the units' ranges.
  Dwarf_Die* compile_unit(Dwfl_Module* mod, Dwarf_Addr addr, Dwarf_Addr* bias, Dwarf_Die* storage) {
    if (Dwarf_Die* cudie = dwfl_module_addrdie(mod, addr, bias)) return cudie;
    Dwarf* dw = dwfl_module_getdwarf(mod, bias);
    if (dw == nullptr) return nullptr;
    for (const CuRange& r : ranges_of(mod, dw)) {
      if (addr - *bias >= r.low && addr - *bias < r.high) {
        *storage = r.cu;
        return storage;
      }
    }
    return nullptr;
  }

  std::vector<Frame> lookup(Dwarf_Addr addr) {
    std::vector<Frame> frames;
    if (addr == 0 || !ready()) return frames;
    Dwfl_Module* mod = module_at(addr);
    if (mod == nullptr) return frames;

    std::string module = basename_of(
        dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
    GElf_Off offset = 0;
    GElf_Sym sym;
    const char* raw_symbol =
        dwfl_module_addrinfo(mod, addr, &offset, &sym, nullptr, nullptr, nullptr);
    const std::string raw = raw_symbol != nullptr ? raw_symbol : "";
    const std::string symbol = demangle(raw_symbol);

    Dwarf_Addr bias = 0;
    Dwarf_Die cu_storage;
    Dwarf_Die* cudie = compile_unit(mod, addr, &bias, &cu_storage);

    Frame innermost;
    innermost.module = module;
    int lineno = 0;
    const char* file = nullptr;
    if (Dwfl_Line* line = dwfl_module_getsrc(mod, addr)) {
      file = dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr);
    } else if (cudie != nullptr) {
      if (Dwarf_Line* line = dwarf_getsrc_die(cudie, addr - bias)) {
        file = dwarf_linesrc(line, nullptr, nullptr);
        if (dwarf_lineno(line, &lineno) != 0) lineno = 0;
      }
    }
    if (file != nullptr) {
      innermost.file = normal_path(file);
      innermost.line = lineno;
    }

    // The inline chain: scopes innermost first; each inlined subroutine's call site is the
    // location in the next function out.
    std::vector<Dwarf_Die> scopes;
    if (cudie != nullptr) code_scopes(cudie, addr - bias, scopes, 0);
    std::reverse(scopes.begin(), scopes.end());
    Frame current = innermost;
    bool closed = false;  // the chain reached the enclosing (not inlined) function
    for (std::size_t i = 0; i < scopes.size(); ++i) {
      int tag = dwarf_tag(&scopes[i]);
      if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
      current.function = function_name(&scopes[i], tag == DW_TAG_subprogram, raw, symbol);
      if (tag == DW_TAG_subprogram) {
        frames.push_back(std::move(current));
        closed = true;
        break;
      }
      Frame caller;
      caller.module = module;
      Dwarf_Attribute attr;
      Dwarf_Word value = 0;
      Dwarf_Die cu;
      Dwarf_Files* files = nullptr;
      std::size_t nfiles = 0;
      if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &value) == 0 &&
          dwarf_diecu(&scopes[i], &cu, nullptr, nullptr) != nullptr &&
          dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 && value < nfiles) {
        caller.file = normal_path(dwarf_filesrc(files, value, nullptr, nullptr));
      }
      if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &value) == 0) {
        caller.line = static_cast<int>(value);
      }
      frames.push_back(std::move(current));
      current = std::move(caller);
    }
    if (!frames.empty() && !closed) {
      // Inlined scopes without their enclosing subprogram: name the last call site by the
      // ELF symbol, which is the out-of-line function.
      current.function = symbol;
      frames.push_back(std::move(current));
    }
    if (frames.empty()) {
      // No DWARF scopes: the ELF symbol and whatever the line table said.
      innermost.function = symbol;
      frames.push_back(std::move(innermost));
    }
    return frames;
  }

  // Entries are never erased and unordered_map nodes do not move: references handed out
  // stay valid after the lock is released.
  const std::vector<Frame>& cached(Dwarf_Addr addr) {
    std::lock_guard lock(mutex);
    auto it = cache.find(addr);
    if (it == cache.end()) it = cache.emplace(addr, lookup(addr)).first;
    return it->second;
  }
};

DwSymbolizer::DwSymbolizer() : impl_(std::make_unique<Impl>()) {}
DwSymbolizer::~DwSymbolizer() = default;

const std::vector<Frame>& DwSymbolizer::frames_at(std::uintptr_t address) {
  return impl_->cached(address);
}

namespace {

bool glob(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// A source file pattern names `file` when it matches the whole path, its base name, or a
// path suffix that starts at a '/'.
bool names_file(const std::string& pattern, const std::string& file) {
  if (glob(pattern, file)) return true;
  for (std::size_t slash = file.find('/'); slash != std::string::npos;
       slash = file.find('/', slash + 1))
    if (glob(pattern, file.substr(slash + 1))) return true;
  return false;
}

std::string without_parameters(const std::string& function) {
  // "ns::Queue<int>::push(int)" -> "ns::Queue<int>::push"; operator() keeps its name.
  std::size_t depth = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    const char c = function[i];
    if (c == '<') ++depth;
    if (c == '>' && depth > 0) --depth;
    if (c == '(' && depth == 0 && !(i >= 8 && function.compare(i - 8, 8, "operator") == 0))
      return function.substr(0, i);
  }
  return function;
}

// f(name, address, size) for each symbol of `mod` of ELF type `type` (STT_FUNC,
// STT_OBJECT) that has a size.
template <typename F>
void each_symbol(Dwfl_Module* mod, int type, F f) {
  const int nsyms = dwfl_module_getsymtab(mod);
  for (int k = 0; k < nsyms; ++k) {
    GElf_Sym sym;
    GElf_Addr addr = 0;
    const char* name = dwfl_module_getsym_info(mod, k, &sym, &addr, nullptr, nullptr, nullptr);
    if (name != nullptr && GELF_ST_TYPE(sym.st_info) == type && sym.st_size != 0)
      f(name, static_cast<std::uintptr_t>(addr), static_cast<std::uintptr_t>(sym.st_size));
  }
}

}  // namespace

std::vector<CodeRange> DwSymbolizer::find_code(const std::vector<std::string>& patterns,
                                               std::vector<bool>* matched) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  matched->assign(patterns.size(), false);
  std::vector<CodeRange> out;
  if (patterns.empty() || !impl_->ready()) return out;
  struct Search {
    Impl* impl;
    const std::vector<std::string>* patterns;
    std::vector<bool>* matched;
    std::vector<CodeRange>* out;
  } search{impl_.get(), &patterns, matched, &out};
  dwfl_getmodules(
      impl_->dwfl,
      [](Dwfl_Module* mod, void**, const char* name, Dwarf_Addr low, void* arg) -> int {
        auto& s = *static_cast<Search*>(arg);
        const std::string path = name != nullptr ? name : "";
        const std::string base = path.substr(path.rfind('/') + 1);
        Dwarf_Addr high = 0;
        dwfl_module_info(mod, nullptr, nullptr, &high, nullptr, nullptr, nullptr, nullptr);
        std::vector<std::size_t> others;  // patterns that do not name the whole module
        for (std::size_t i = 0; i < s.patterns->size(); ++i) {
          if (glob((*s.patterns)[i], base)) {
            (*s.matched)[i] = true;
            s.out->push_back({low, high});
          } else {
            others.push_back(i);
          }
        }
        if (others.empty()) return DWARF_CB_OK;
        // Functions, by their symbols.
        each_symbol(mod, STT_FUNC,
                    [&](const char* sname, std::uintptr_t addr, std::uintptr_t size) {
                      const std::string function = without_parameters(demangle(sname));
                      for (std::size_t i : others) {
                        if (glob((*s.patterns)[i], function) || glob((*s.patterns)[i], sname)) {
                          (*s.matched)[i] = true;
                          s.out->push_back({addr, addr + size});
                        }
                      }
                    });
        // Source files, by their compile units.
        Dwarf_Addr bias = 0;
        if (Dwarf* dw = dwfl_module_getdwarf(mod, &bias)) {
          for (const Impl::CuRange& r : s.impl->ranges_of(mod, dw)) {
            Dwarf_Die cu = r.cu;
            const char* cu_name = dwarf_diename(&cu);
            if (cu_name == nullptr) continue;
            for (std::size_t i : others) {
              if (names_file((*s.patterns)[i], cu_name)) {
                (*s.matched)[i] = true;
                s.out->push_back({r.low + bias, r.high + bias});
              }
            }
          }
        }
        return DWARF_CB_OK;
      },
      &search, 0);
  std::sort(out.begin(), out.end(),
            [](const CodeRange& a, const CodeRange& b) { return a.begin < b.begin; });
  std::vector<CodeRange> merged;
  for (const CodeRange& r : out) {
    if (!merged.empty() && r.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, r.end);
    else
      merged.push_back(r);
  }
  return merged;
}

std::vector<CodeRange> DwSymbolizer::find_variables(const std::string& pattern) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<CodeRange> out;
  if (!impl_->ready()) return out;
  struct Search {
    const std::string* pattern;
    std::vector<CodeRange>* out;
  } search{&pattern, &out};
  dwfl_getmodules(
      impl_->dwfl,
      [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
        auto& s = *static_cast<Search*>(arg);
        each_symbol(mod, STT_OBJECT,
                    [&](const char* sname, std::uintptr_t addr, std::uintptr_t size) {
                      if (glob(*s.pattern, sname) || glob(*s.pattern, demangle(sname)))
                        s.out->push_back({addr, addr + size});
                    });
        return DWARF_CB_OK;
      },
      &search, 0);
  return out;
}

std::string DwSymbolizer::variable(std::uintptr_t address) {
  std::lock_guard lock(impl_->mutex);
  return global_at(address, nullptr, nullptr);
}

std::string DwSymbolizer::global_at(std::uintptr_t address, std::size_t* pointee, bool* reference) {
  if (address == 0 || !impl_->ready()) return "";
  Dwfl_Module* mod = impl_->module_at(address);
  if (mod == nullptr) return "";
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* name = dwfl_module_addrinfo(mod, address, &offset, &sym, nullptr, nullptr, nullptr);
  if (name == nullptr || GELF_ST_TYPE(sym.st_info) != STT_OBJECT) return "";
  if (sym.st_size != 0 && offset >= sym.st_size) return "";  // past its end: not it
  std::string text = demangle(name);
  // The member and element there, as the debug information's type says (table[2].count).
  Dwarf_Die var, type, reached;
  reached.addr = nullptr;  // set when the path names exactly the member there
  if (impl_->variable_die(mod, address - offset, &var) && type_of(&var, &type)) {
    member_path(type, offset, &text, &reached);
    PointerLocal p;
    if (pointee != nullptr && reached.addr != nullptr && pointer_to(reached, address, &p)) {
      *pointee = p.pointee;
      if (reference != nullptr) *reference = p.reference;
    }
  } else if (offset != 0) {
    text += "+" + std::to_string(offset);
  }
  return text;
}

std::size_t DwSymbolizer::global_pointee(std::uintptr_t address, bool* reference) {
  std::lock_guard lock(impl_->mutex);
  std::size_t pointee = 0;
  global_at(address, &pointee, reference);
  return pointee;
}

// A live frame as the debug information sees it: the code scopes it is in, innermost
// last, the pc they were found at (unbiased), and where its locals are.
struct DwSymbolizer::FrameScopes {
  std::vector<Dwarf_Die> scopes;
  Dwarf_Addr where = 0;
  FrameAddresses frame;
};

bool DwSymbolizer::frame_scopes(std::uintptr_t pc, std::uintptr_t entry, std::uintptr_t cfa,
                                FrameScopes* out) {
  if (cfa == 0 || entry <= 1 || !impl_->ready()) return false;
  Dwfl_Module* mod = impl_->module_at(entry - 1);
  Dwarf_Addr bias = 0;
  Dwarf_Die cu_storage;
  Dwarf_Die* cudie =
      mod == nullptr ? nullptr : impl_->compile_unit(mod, entry - 1, &bias, &cu_storage);
  if (cudie == nullptr) return false;
  // The scopes at the frame's pc when that is in the same function as its entry (it is
  // inside the blocks the frame has entered since), else at the entry.
  auto function = [](const std::vector<Dwarf_Die>& scopes) -> const Dwarf_Die* {
    for (const Dwarf_Die& d : scopes)
      if (dwarf_tag(const_cast<Dwarf_Die*>(&d)) == DW_TAG_subprogram) return &d;
    return nullptr;
  };
  std::vector<Dwarf_Die> at_pc;
  out->where = entry - 1 - bias;
  code_scopes(cudie, out->where, out->scopes, 0);
  const Dwarf_Die* entered = function(out->scopes);
  if (entered == nullptr) return false;
  if (pc > 1 && impl_->covering(pc - 1) == mod) {  // (no re-read: cudie lives in mod)
    code_scopes(cudie, pc - 1 - bias, at_pc, 0);
    const Dwarf_Die* now = function(at_pc);
    if (now != nullptr && dwarf_dieoffset(const_cast<Dwarf_Die*>(now)) ==
                              dwarf_dieoffset(const_cast<Dwarf_Die*>(entered))) {
      out->scopes = std::move(at_pc);
      out->where = pc - 1 - bias;
    }
  }
  Dwarf_Die subprogram = *function(out->scopes);
  out->frame.sp = stack_pointer(mod, out->where + bias, cfa);
  out->frame.base = frame_base(&subprogram, out->where, cfa, out->frame.sp);
  return true;
}

std::string DwSymbolizer::local_variable(std::uintptr_t address, std::uintptr_t pc,
                                         std::uintptr_t entry, std::uintptr_t cfa) {
  std::lock_guard lock(impl_->mutex);
  FrameScopes f;
  if (address >= cfa || !frame_scopes(pc, entry, cfa, &f)) return "";
  for (auto scope = f.scopes.rbegin(); scope != f.scopes.rend(); ++scope) {
    std::string name = local_in(&*scope, f.where, f.frame, address);
    if (!name.empty()) return name;
  }
  return "";
}

std::vector<PointerLocal> DwSymbolizer::pointer_locals(std::uintptr_t pc, std::uintptr_t entry,
                                                       std::uintptr_t cfa, const WordReader& read) {
  std::lock_guard lock(impl_->mutex);
  std::vector<PointerLocal> out;
  FrameScopes f;
  if (!frame_scopes(pc, entry, cfa, &f)) return out;
  for (auto scope = f.scopes.rbegin(); scope != f.scopes.rend(); ++scope) {
    Dwarf_Die child;
    if (dwarf_child(&*scope, &child) != 0) continue;
    do {
      const int tag = dwarf_tag(&child);
      Dwarf_Attribute attr;
      Dwarf_Op op;
      Dwarf_Die type;
      std::uintptr_t at = 0, value = 0;
      if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
          dwarf_attr(&child, DW_AT_location, &attr) == nullptr || !single_op(&attr, f.where, &op) ||
          (at = frame_slot(op, f.frame)) == 0 || !type_of(&child, &type) || !read(at, &value))
        continue;
      const std::string name = variable_name(&child);
      if (name.empty()) continue;
      add_pointer(name, type, value, entry - 1, &out);
      // A pointer member of a local object: pool.queue_, or a lambda's capture (tally).
      strip_qualifiers(&type);
      const int ttag = dwarf_tag(&type);
      Dwarf_Die member;
      if ((ttag != DW_TAG_structure_type && ttag != DW_TAG_class_type) || library_type(&type) ||
          dwarf_child(&type, &member) != 0)
        continue;
      const bool closure = dwarf_diename(&type) == nullptr && has_call_operator(&type);
      do {
        Dwarf_Word moff = 0;
        Dwarf_Die mtype;
        std::uintptr_t mvalue = 0;
        const char* mname = dwarf_diename(&member);
        if (dwarf_tag(&member) != DW_TAG_member || mname == nullptr ||
            dwarf_formudata(dwarf_attr(&member, DW_AT_data_member_location, &attr), &moff) != 0 ||
            !type_of(&member, &mtype) || !read(at + moff, &mvalue))
          continue;
        std::string path = mname;
        if (closure && path.starts_with("__")) path = path.substr(2);  // gcc's capture names
        add_pointer(closure ? path : name + "." + path, mtype, mvalue, entry - 1, &out);
      } while (dwarf_siblingof(&member, &member) == 0);
    } while (dwarf_siblingof(&child, &child) == 0);
  }
  return out;
}

bool DwSymbolizer::pointer_to(Dwarf_Die type, Dwarf_Addr code, PointerLocal* p) {
  strip_qualifiers(&type);
  const int tag = dwarf_tag(&type);
  if (tag != DW_TAG_pointer_type && tag != DW_TAG_reference_type &&
      tag != DW_TAG_rvalue_reference_type)
    return false;
  p->reference = tag != DW_TAG_pointer_type;
  Dwarf_Die pointee;
  if (type_of(&type, &pointee)) {
    impl_->pointees.emplace_back(code, dwarf_dieoffset(&pointee));
    p->pointee = impl_->pointees.size();
  }
  return true;
}

void DwSymbolizer::add_pointer(const std::string& name, Dwarf_Die type, std::uintptr_t value,
                               Dwarf_Addr code, std::vector<PointerLocal>* out) {
  PointerLocal p;
  p.name = name;
  p.value = value;
  if (pointer_to(type, code, &p)) out->push_back(std::move(p));
}

std::string DwSymbolizer::pointee_path(std::size_t pointee, std::uint64_t offset) {
  std::lock_guard lock(impl_->mutex);
  std::string path;
  if (pointee == 0 || pointee > impl_->pointees.size()) {
    if (offset != 0) path = "+" + std::to_string(offset);
    return path;
  }
  const auto [code, die] = impl_->pointees[pointee - 1];
  Dwarf_Addr bias = 0;
  Dwfl_Module* mod = impl_->ready() ? impl_->module_at(code) : nullptr;
  Dwarf* dw = mod == nullptr ? nullptr : dwfl_module_getdwarf(mod, &bias);
  Dwarf_Die type;
  if (dw != nullptr && dwarf_offdie(dw, die, &type) != nullptr) {
    member_path(type, offset, &path);
  } else if (offset != 0) {
    path = "+" + std::to_string(offset);
  }
  return path;
}

}  // namespace weft

extern "C" weft::SymbolizerBackend* weft_new_symbolizer_backend() {
  return new weft::DwSymbolizer();
}
