#pragma once
// The C and C++ language runtime's shared objects, by file name: their code is not the
// program's (reports look past it for the user's line; the runtime does not schedule
// their lazy initialisation).
#include <initializer_list>
#include <string_view>

namespace weft {

inline bool is_language_runtime_library(std::string_view file_name) {
  for (std::string_view prefix :
       {"libc.so", "libc-", "libstdc++.so", "libgcc_s.so", "libm.so", "libpthread.so", "ld-linux",
        "ld64.so", "libc++.so", "libc++abi.so"})
    if (file_name.starts_with(prefix)) return true;
  return false;
}

}  // namespace weft
