// The rest of libgomp's entry points: each a tool error naming the construct (exit 2).
// Left to the real libgomp, a call would start threads weft does not control, or wait
// on futexes it cannot see, and the run would hang.
#include "intercept/openmp_icv.hpp"
#include "intercept/real.hpp"

#define WEFT_REFUSED(name, construct)                                                     \
  extern "C" void name() {                                                                \
    const char* what = construct;                                                         \
    weft::intercept::openmp::unsupported(what != nullptr ? what : #name, #name, WEFT_PC); \
  }
#include "intercept/openmp_unsupported.def"
#undef WEFT_REFUSED
