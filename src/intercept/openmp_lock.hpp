#pragma once
// OpenMP's locks as weft models them (openmp_lock.cpp), for both ABIs' critical sections,
// atomics and reductions.
#include <cstdint>

namespace weft::intercept::openmp {

// Sets or unsets the simple lock at `lock` (any memory of at least 4 bytes that nothing
// else uses); `pc` is where the program asked, `call` names the unset in a misuse report.
void set_lock(void* lock, std::uintptr_t pc);
void unset_lock(void* lock, std::uintptr_t pc, const char* call);
// The one lock of GOMP_atomic_start and __kmpc_atomic_start.
void* atomic_lock();

}  // namespace weft::intercept::openmp
