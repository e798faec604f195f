#pragma once
// Code addresses with known source lines, for building RunRecords by hand. Each site is a
// real call in sites.cpp; `pc` is its return address, as weft records an op's pc.
#include <cstdint>

namespace weft_test {

struct Site {
  std::uintptr_t pc = 0;
  int line = 0;        // the line of the call
  int inner_line = 0;  // inlined_site only: the line inside the inlined function
};

Site named_site(int x);         // in weft_test::named_site(int)
Site other_site();              // in weft_test::other_site()
Site inlined_site();            // a call inside weft_test::inlined_helper(int*), inlined here
Site anonymous_site();          // in weft_test::(anonymous namespace)::hidden()
Site anonymous_inlined_site();  // in weft_test::(anonymous namespace)::inlined_hidden, inlined
std::uintptr_t return_address();
void keep(std::uintptr_t v);
Site lambda_site();              // in a lambda inside weft_test::lambda_site(), inlined there
// A call made from inside std::for_each (a libstdc++ header), inlined here: how an op
// issued by std::mutex::lock looks. sites.cpp is built with -O2 so that it is inlined.
Site header_site();
std::uintptr_t libc_pc();       // a return address inside libc's puts
const char* sites_file();       // __FILE__ of sites.cpp

}  // namespace weft_test

// A C-linkage function: its name is not mangled.
extern "C" void c_site(weft_test::Site* out);
