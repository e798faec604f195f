#pragma once
// Which memory accesses are scheduling points: the one place that decides.
//
// Today: every instrumented plain access and every atomic operation, except while the
// accessing thread is the only unfinished one (nothing can interleave with it, and an
// access cannot enable a blocked thread). A later issue narrows plain accesses to the
// racy ones.
#include "runtime/controller.hpp"

namespace weft::rt {

inline bool access_is_scheduling_point(const Controller& c) { return c.alive() > 1; }

// True once instrumented code (__tsan_init from a module constructor) was loaded.
extern bool g_instrumented;
// Where to also record it (a whole program's execution: its constructors run after weft
// took control, so the fork server learns it from the execution).
extern bool* g_instrumented_out;

}  // namespace weft::rt
