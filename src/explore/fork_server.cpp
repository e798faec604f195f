#include "explore/fork_server.hpp"

#include <malloc.h>
#include <stdlib.h>

#include "detect/crash_handler.hpp"
#include "explore/whole_program_exploration.hpp"
#include "explore/stop_request.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/virtual_clock.hpp"

namespace weft::explorer {

void maybe_run_fork_server() {
  const std::string options = take_env(kRunConfigVariable);
  if (options.empty()) return;
  // From here until a child returns into the program, every block is weft's own: glibc's
  // heap stays as the program left it, the same for every execution.
  rt::InternalHeap::set_weft_thread(true);
  auto* s = new ExplorationState();  // shared with every child; never freed
  ExplorationConfig& c = s->config;
  read_server_config(options, &c);
  StopRequest::watch(c.lifeline_fd);
  detect::warm_up_unwinder();  // once here, not in each execution: crashes and hangs unwind
  rt::VirtualClock::enabled = !c.real_time;
  // A program this one executes must not find weft preloaded and become a server too,
  // nor inherit the eager binding weft asked for.
  unsetenv("LD_PRELOAD");
  if (c.bind_now_added) unsetenv("LD_BIND_NOW");
  // One malloc arena: threads under weft run one at a time, so more arenas buy nothing,
  // and each thread's first malloc would map a new one in every execution's child.
  mallopt(M_ARENA_MAX, 1);
  serve(*s);
}

}  // namespace weft::explorer
