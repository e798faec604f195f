#include "detect/crash_handler.hpp"

#include <cxxabi.h>
#include <signal.h>
#include <ucontext.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <typeinfo>

#include "detect/fault_address.hpp"

namespace weft::detect {
namespace {

BugSlot* g_slot = nullptr;
FinishFn g_finish = nullptr;
ThreadId (*g_current)() = nullptr;
std::uintptr_t (*g_site)() = nullptr;

std::uintptr_t pc_of(void* uctx) {
  auto* uc = static_cast<ucontext_t*>(uctx);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  return 0;
#endif
}

// A general protection fault comes with no address (an access through a non-canonical
// address, such as 0xabab... read from freed memory, or a misaligned SSE access): the
// faulting instruction's operand gives it.
void describe_protection_fault(char* m, std::size_t cap, const void* uctx) {
  std::uint64_t a = 0;
  bool decoded = false;
#if defined(__x86_64__)
  if (uctx != nullptr) {
    const auto* uc = static_cast<const ucontext_t*>(uctx);
    static constexpr int kOrder[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                                       REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                       REG_R12, REG_R13, REG_R14, REG_R15};
    X86Registers regs;
    for (int i = 0; i < 16; ++i)
      regs.gpr[i] = static_cast<std::uint64_t>(uc->uc_mcontext.gregs[kOrder[i]]);
    const auto* code = reinterpret_cast<const std::uint8_t*>(uc->uc_mcontext.gregs[REG_RIP]);
    decoded = decoded_fault_address(code, regs, &a);
  }
#else
  (void)uctx;
#endif
  if (!decoded) {
    copy_text(m, cap,
              "SIGSEGV: general protection fault (the kernel gives no address: an access "
              "through a non-canonical pointer, such as one read from freed or "
              "uninitialised memory, or a misaligned SSE access)");
    return;
  }
  copy_text(m, cap, "SIGSEGV: invalid memory access at address ");
  append_hex(m, cap, a);
  append_text(m, cap,
              canonical_address(a)
                  ? " (a general protection fault: an access this instruction cannot "
                    "make there, such as a misaligned SSE access)"
                  : " (not a canonical address: a pointer read from freed, "
                    "uninitialised or overwritten memory?)");
}

void on_signal(int sig, siginfo_t* info, void* uctx) {
  if (g_slot->claim()) {
    describe_signal(g_slot, sig, info->si_code, info->si_addr, uctx);
    g_slot->kind = static_cast<int>(BugKind::kCrash);
    g_slot->thread = g_current();
    // +1: the report subtracts one from return addresses; this is the faulting pc itself.
    const std::uintptr_t site = g_site != nullptr ? g_site() : 0;
    g_slot->pc = site != 0 ? site : pc_of(uctx) + 1;
    interrupted_callers(pc_of(uctx), g_slot->callers, StackSample::kFrames);
    g_slot->publish();
  }
  g_finish();
}

thread_local std::uintptr_t t_throw_pc = 0;
thread_local const void* t_throw_object = nullptr;

void on_terminate() {
  if (g_slot->claim()) {
    std::exception_ptr e = std::current_exception();
    g_slot->thread = g_current();
    if (e) {
      g_slot->kind = static_cast<int>(BugKind::kUncaughtException);
      g_slot->pc = current_throw_site();
      std::string what = "uncaught exception: ";
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        int status = 0;
        char* name = abi::__cxa_demangle(typeid(ex).name(), nullptr, nullptr, &status);
        what += std::string(status == 0 && name ? name : typeid(ex).name()) + ": " + ex.what();
        std::free(name);
      } catch (...) {
        what += "of a type not derived from std::exception";
      }
      copy_text(g_slot->message, sizeof g_slot->message, what.c_str());
    } else {
      g_slot->kind = static_cast<int>(BugKind::kCrash);
      copy_text(g_slot->message, sizeof g_slot->message, "std::terminate called");
    }
    g_slot->publish();
  }
  g_finish();
}

}  // namespace

void note_throw(std::uintptr_t pc, const void* object) {
  t_throw_pc = pc;
  t_throw_object = object;
}

std::uintptr_t current_throw_site() {
  const std::exception_ptr e = std::current_exception();
  if (!e) return 0;
  // libstdc++'s exception_ptr is the thrown object's address (what __cxa_throw was given).
  static_assert(sizeof e == sizeof(void*));
  const void* object = nullptr;
  std::memcpy(&object, &e, sizeof object);
  return object == t_throw_object ? t_throw_pc : 0;
}

void describe_signal(BugSlot* slot, int sig, int code, const void* fault_addr, const void* uctx) {
  char* m = slot->message;
  const std::size_t cap = sizeof slot->message;
  switch (sig) {
    case SIGSEGV:
      if (code == SI_KERNEL) {  // the kernel knows no address: a general protection fault
        describe_protection_fault(m, cap, uctx);
        break;
      }
      copy_text(m, cap, "SIGSEGV: invalid memory access at address ");
      append_hex(m, cap, reinterpret_cast<std::uintptr_t>(fault_addr));
      if (code == SEGV_MAPERR) append_text(m, cap, " (not mapped)");
      if (code == SEGV_ACCERR)
        append_text(
            m, cap,
            " (mapped without the permission: a write to read-only memory, or a guard page)");
      break;
    case SIGBUS:
      copy_text(m, cap, "SIGBUS: bus error at address ");
      append_hex(m, cap, reinterpret_cast<std::uintptr_t>(fault_addr));
      break;
    case SIGFPE:
      copy_text(
          m, cap,
          code == FPE_INTDIV ? "SIGFPE: integer division by zero" : "SIGFPE: arithmetic exception");
      break;
    case SIGILL: copy_text(m, cap, "SIGILL: illegal instruction"); break;
    case SIGABRT: copy_text(m, cap, "SIGABRT: abort() called"); break;
    case SIGTRAP: copy_text(m, cap, "SIGTRAP: trap instruction"); break;
    default:
      copy_text(m, cap, "fatal signal ");
      append_dec(m, cap, static_cast<std::uint64_t>(sig));
  }
}

void set_crash_site(std::uintptr_t (*site)()) { g_site = site; }

void install_crash_handlers(BugSlot* slot, FinishFn finish, ThreadId (*current_thread)()) {
  g_slot = slot;
  g_finish = finish;
  g_current = current_thread;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = &on_signal;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;  // controlled threads have an alternate stack
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) sigaction(sig, &sa, nullptr);
  std::set_terminate(&on_terminate);
}

}  // namespace weft::detect
