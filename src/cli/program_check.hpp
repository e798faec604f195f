#pragma once
// Whether a file is a program weft can run: a 64-bit ELF executable of the machine weft
// was built for, whole. Checked before weft runs it, since exec would refuse it late (or,
// through execvp, hand it to /bin/sh, whose exit status looked like the program's bug).
#include <string>

namespace weft::cli {

// "" when `path` (a regular file) is such a program; else why not, one line that starts
// with the path ("./prog is a 32-bit ELF (i386); weft runs 64-bit x86-64 programs").
std::string program_problem(const std::string& path);

}  // namespace weft::cli
