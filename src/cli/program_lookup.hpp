#pragma once
// Finding what weft runs: its own runtime library, and the program as execvp would.
#include <string>

namespace weft::cli {

// weft's runtime next to this executable: <prefix>/bin/weft -> <prefix>/lib/libweft.so,
// or where it was installed. "" when there is none.
std::string runtime_path();

// The program as execvp would find it (a directory in PATH is passed over, as execvp
// does); "" with *why when it cannot be run.
std::string resolve_program(const std::string& name, std::string* why);

// `name` as the shell would find it in PATH; "" when it is not there.
std::string find_in_path(const std::string& name);

}  // namespace weft::cli
