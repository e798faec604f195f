#include "runtime/virtual_ids.hpp"

#include "runtime/controller.hpp"
#include "sys/os.hpp"

namespace weft::rt {

bool VirtualIds::enabled = false;

pid_t VirtualIds::pid() { return enabled ? kPid : os::getpid(); }

pid_t VirtualIds::tid() {
  if (!enabled) return os::gettid();
  if (ThreadState* self = t_self) return kPid + static_cast<pid_t>(self->id);
  return os::gettid();  // weft's own threads (a watchdog, idle carriers)
}

pid_t VirtualIds::real_pid(pid_t pid) { return enabled && pid == kPid ? os::getpid() : pid; }

pid_t VirtualIds::real_tid(pid_t tid) {
  if (!enabled || tid < kPid) return tid;
  Controller* c = Controller::active();
  const auto id = static_cast<std::size_t>(tid - kPid);
  if (c == nullptr || id >= c->thread_count()) return tid;
  const ThreadState* t = c->thread(static_cast<ThreadId>(id));
  return t != nullptr && t->tid != 0 && !t->finished ? t->tid : tid;
}

}  // namespace weft::rt
