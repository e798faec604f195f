#pragma once
// Whether the program is instrumented. Which memory accesses are scheduling points is
// decided in one place, Controller::access_is_point (see racy_points.hpp).
#include "runtime/controller.hpp"

namespace weft::rt {

// True once instrumented code (__tsan_init from a module constructor) was loaded.
extern bool g_instrumented;
// Where to also record it (a whole program's execution: its constructors run after weft
// took control, so the fork server learns it from the execution).
extern bool* g_instrumented_out;

}  // namespace weft::rt
