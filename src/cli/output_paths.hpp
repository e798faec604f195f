#pragma once
// The files weft is asked to write, checked before it runs anything: none may be one that
// another output names too (the later would clobber the earlier), nor a file weft reads or
// runs (the program under test, a schedule or result it reads, weft itself), nor a
// kernel's file that takes no report (/proc, /sys).
#include <string>
#include <vector>

namespace weft::cli {

struct NamedPath {
  std::string name;  // what names it: "--json", "the program under test", ...
  std::string path;  // "" or "-" (stdout): no file
};

// "" or one line naming the first clash: two outputs that are the same file (a regular
// file by device and inode; one yet to be made by its normalised path; devices such as
// /dev/null may be shared), or an output that is one of `inputs`.
std::string output_clash(const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& inputs);

// "" when `path` can be written (it exists and is writable, or its directory is, and it
// is not a file of /proc or /sys); else why not, in one line naming `option`.
std::string unwritable(const std::string& option, const std::string& path);

}  // namespace weft::cli
