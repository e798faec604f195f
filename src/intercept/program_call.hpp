#pragma once
// Where the program called, for a wrapper of weft's own that calls other interposed
// functions (thrd_create calls pthread_create, an OpenMP barrier pthread_barrier_wait):
// their steps are placed at the program's call, not inside the wrapper.
#include <cstdint>

#include "runtime/thread_state.hpp"

namespace weft::intercept {

class ProgramCall {
 public:
  explicit ProgramCall(std::uintptr_t pc) : self_(rt::controlled_thread()) {
    if (self_ != nullptr) {
      saved_ = self_->call_pc;
      if (saved_ == 0) self_->call_pc = pc;  // the outermost call is the program's
    }
  }
  ~ProgramCall() {
    if (self_ != nullptr) self_->call_pc = saved_;
  }
  ProgramCall(const ProgramCall&) = delete;
  ProgramCall& operator=(const ProgramCall&) = delete;

 private:
  rt::ThreadState* self_;
  std::uintptr_t saved_ = 0;
};

}  // namespace weft::intercept

#define WEFT_PROGRAM_CALL ::weft::intercept::ProgramCall program_call(WEFT_PC)
