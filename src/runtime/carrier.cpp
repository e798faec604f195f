#include "runtime/carrier.hpp"

#include "sys/os.hpp"
#include "runtime/signals.hpp"

#include <errno.h>
#include <link.h>
#include <sys/prctl.h>

#include <cstring>
#include <string_view>

namespace weft::rt {
namespace {

// The program's modules: the executable and libraries outside the system's directories.
bool is_program_module(std::string_view name) {
  if (name.empty()) return true;  // the main executable
  if (name.starts_with("/lib") || name.starts_with("/usr/lib")) return false;
  return name.find("libweft") == std::string_view::npos &&
         name.find("linux-vdso") == std::string_view::npos;
}

int reset_module_tls(struct dl_phdr_info* info, std::size_t, void*) {
  if (info->dlpi_tls_data == nullptr || !is_program_module(info->dlpi_name)) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_TLS) continue;
    auto* block = static_cast<char*>(info->dlpi_tls_data);
    std::memcpy(block, reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr), ph.p_filesz);
    std::memset(block + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
  }
  return 0;
}

}  // namespace

void reset_carrier(Carrier* c) {
  dl_iterate_phdr(&reset_module_tls, nullptr);
  if (c->renamed) prctl(PR_SET_NAME, c->initial_name, 0, 0, 0);
  // Signal delivery (signals.hpp) sets masks of its own.
  if (c->mask_changed || signals::active()) os::signal_mask(SIG_SETMASK, &c->initial_mask, nullptr);
  c->renamed = c->mask_changed = false;
  errno = 0;
}

}  // namespace weft::rt
