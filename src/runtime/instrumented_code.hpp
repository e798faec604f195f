#pragma once
// Where the program's instrumented code lives, so that an operation called from inside an
// uninstrumented library (std::thread's constructor in libstdc++.so calls pthread_create)
// can be attributed to the program's own line instead.
#include <cstdint>
#include <string>
#include <string_view>

namespace weft::rt {

// Records the code of the module containing `pc`, a pc of instrumented code (the memory
// hooks' slow paths call it; __tsan_init cannot: compilers tail-call it from constructors).
void note_instrumented_module(std::uintptr_t pc);
// `pc` when it is in instrumented code (or nothing is instrumented); otherwise the first
// return address on the calling thread's stack that is. Costs an unwind only in that case.
std::uintptr_t program_pc(std::uintptr_t pc);
// Whether `pc` is in the C/C++ language runtime (libc, libstdc++, libgcc_s, the dynamic
// loader): their own lazy initialisation (a pthread_once inside the unwinder, say) is not
// the program's synchronisation, and whether it already ran depends on the process weft
// forked the execution from, not on the schedule.
bool in_language_runtime(std::uintptr_t pc);

// A code address as "<module file name>+<hex offset>" ("" names the main program), the
// same in every process of that build whatever address the module loaded at; "" when no
// module holds it. resolve_code_location() is its inverse in this process (0: no such
// module loaded, or malformed).
std::string code_location(std::uintptr_t pc);
std::uintptr_t resolve_code_location(std::string_view location);

}  // namespace weft::rt
