#include "sys/process_snapshot.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "sys/os.hpp"

namespace weft::os {
namespace {

constexpr std::size_t kMaxMappings = 8192, kMaxPieces = 4096, kMaxFds = 1024;
constexpr std::size_t kStackBytes = 256 << 10, kMapsBytes = 2 << 20;
constexpr int kSignals = 64;
constexpr std::uintptr_t kPage = 4096;

// The bookkeeping's types have no initialisers: a fresh mapping is zeroes already, and
// initialising its arrays would touch (fault in) pages that restore() never uses.
struct Range {
  std::uintptr_t begin, end;
};

enum class Kind : std::uint8_t { kOther, kHeap, kStack };

struct Mapping {
  std::uintptr_t begin, end;
  char perms[4];
  Kind kind;
  bool same_perms(const Mapping& m) const { return std::memcmp(perms, m.perms, 4) == 0; }
  bool private_writable() const { return perms[1] == 'w' && perms[3] == 'p'; }
};

struct Piece {
  std::uintptr_t begin, end;
  char* copy;
};

struct SavedFd {
  int fd, stash;
  bool cloexec;
};

// The kernel's struct sigaction (rt_sigaction), saved and put back as the kernel has it:
// glibc's wrapper would add its own restorer.
struct KernelAction {
  void* handler;
  unsigned long flags;
  void* restorer;
  std::uint64_t mask;
};

// Every system call here by the instruction itself (os::raw_syscall): the restorer runs
// with libc's memory in the middle of being put back.
long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0) {
  return raw_syscall(n, a, b, c, d);
}

// memcpy, but never a call: an interposed memcpy (weft's, which tells its race detector)
// would run on memory in the middle of being put back.
void copy(char* to, const char* from, std::size_t n) {
#if defined(__x86_64__)
  __asm__ volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
#else
  for (std::size_t i = 0; i < n; ++i) {
    to[i] = from[i];
    __asm__ volatile("" : : : "memory");  // not turned into a call of memcpy
  }
#endif
}

std::uintptr_t hex(const char*& p, const char* end) {
  std::uintptr_t v = 0;
  for (; p < end; ++p) {
    const char c = *p;
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) break;
    v = v * 16 + static_cast<std::uintptr_t>(d);
  }
  return v;
}

}  // namespace

struct ProcessSnapshot::Control {
  ucontext_t context;
  ucontext_t restorer;
  bool resuming;
  bool saved;  // here, not in the object: the object may be restored memory
  pid_t tid;
  std::uintptr_t brk;
  mode_t umask;
  int cwd_fd;  // -1 until taken
  std::size_t nexcluded;
  Range excluded[ProcessSnapshot::kMaxExcluded];
  std::size_t nmappings;
  Mapping mappings[kMaxMappings];
  std::size_t npieces;
  Piece pieces[kMaxPieces];
  std::size_t saved_bytes;
  char* copies;
  std::size_t copies_bytes;
  std::size_t nfds;
  SavedFd fds[kMaxFds];
  KernelAction actions[kSignals + 1];
  bool has_action[kSignals + 1];
  // restore()'s scratch: the mappings now, and the new ones to unmap.
  std::size_t ncurrent;
  Mapping current[kMaxMappings];
  std::size_t nunmap;
  Range unmap[kMaxPieces];
  alignas(16) char stack[kStackBytes];
  char text[kMapsBytes];

  bool excluded_page(std::uintptr_t page) const {
    for (std::size_t i = 0; i < nexcluded; ++i)
      if (page < excluded[i].end && page + kPage > excluded[i].begin) return true;
    return false;
  }
};

namespace {

using Control = ProcessSnapshot::Control;

// /proc/self/maps into out[]; false when it does not fit or cannot be read.
bool read_mappings(Control& c, Mapping* out, std::size_t* n) {
  const long fd =
      sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/maps"), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::size_t used = 0;
  for (;;) {
    const long got = sys(SYS_read, fd, reinterpret_cast<long>(c.text + used),
                         static_cast<long>(sizeof c.text - used));
    if (got <= 0) break;
    used += static_cast<std::size_t>(got);
    if (used == sizeof c.text) break;
  }
  sys(SYS_close, fd);
  if (used == sizeof c.text) return false;
  *n = 0;
  const char* p = c.text;
  const char* end = c.text + used;
  while (p < end) {
    const char* eol = p;  // (no libc call: it may be interposed)
    while (eol < end && *eol != '\n') ++eol;
    if (*n == kMaxMappings) return false;
    Mapping& m = out[(*n)++];
    m.begin = hex(p, eol);
    ++p;  // '-'
    m.end = hex(p, eol);
    ++p;  // ' '
    for (int k = 0; k < 4 && p + k < eol; ++k) m.perms[k] = p[k];
    m.kind = Kind::kOther;
    // The name is the line's last field.
    const char* name = eol;
    while (name > p && name[-1] != ' ') --name;
    if (eol - name == 6 && std::memcmp(name, "[heap]", 6) == 0) m.kind = Kind::kHeap;
    if (eol - name == 7 && std::memcmp(name, "[stack]", 7) == 0) m.kind = Kind::kStack;
    p = eol + 1;
  }
  return true;
}

std::size_t count_dir(const char* path, Control& c, int* fds = nullptr, std::size_t max = 0) {
  const long dir =
      sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  std::size_t n = 0;
  for (;;) {
    const long got = sys(SYS_getdents64, dir, reinterpret_cast<long>(c.text), sizeof c.text);
    if (got <= 0) break;
    for (long off = 0; off < got;) {
      auto* d = reinterpret_cast<struct dirent64*>(c.text + off);
      off += d->d_reclen;
      if (d->d_name[0] == '.') continue;
      int v = 0;
      for (const char* q = d->d_name; *q >= '0' && *q <= '9'; ++q) v = v * 10 + (*q - '0');
      if (fds != nullptr && v == dir) continue;
      if (fds != nullptr && n < max) fds[n] = v;
      ++n;
    }
  }
  sys(SYS_close, dir);
  return n;
}

// Whether [begin, end) is covered by mappings of perms `like` (the same protection).
bool covered(const Mapping* list, std::size_t n, const Mapping& like) {
  std::uintptr_t at = like.begin;
  for (std::size_t i = 0; i < n && at < like.end; ++i) {
    if (list[i].end <= at) continue;
    if (list[i].begin > at || !list[i].same_perms(like)) return false;
    at = list[i].end;
  }
  return at >= like.end;
}

std::string address_text(std::uintptr_t a) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(a));
  return std::string(buf, static_cast<std::size_t>(n));
}

// Calls fn(lo, hi) for the parts of [lo, hi) that no excluded range covers (ranges rounded
// out to whole pages when `pages`); false as soon as fn does.
template <typename Fn>
bool each_unexcluded(const Control& c, std::uintptr_t lo, std::uintptr_t hi, bool pages, Fn fn) {
  while (lo < hi) {
    std::uintptr_t stop = hi, resume = hi;
    for (std::size_t e = 0; e < c.nexcluded; ++e) {
      std::uintptr_t xb = c.excluded[e].begin, xe = c.excluded[e].end;
      if (pages) {
        xb &= ~(kPage - 1);
        xe = (xe + kPage - 1) & ~(kPage - 1);
      }
      if (xe > lo && xb < stop) {
        stop = std::max(xb, lo);
        resume = xe;
      }
    }
    if (stop > lo && !fn(lo, stop)) return false;
    lo = std::max(resume, stop);
  }
  return true;
}

// What was mapped at the start and is no more, or has another protection: "" when none.
std::string lost_mapping(const Control& c) {
  std::string lost;
  for (std::size_t i = 0; i < c.nmappings && lost.empty(); ++i) {
    const Mapping& m = c.mappings[i];
    if (m.kind == Kind::kHeap) continue;  // brk puts it back
    each_unexcluded(c, m.begin, m.end, true, [&](std::uintptr_t lo, std::uintptr_t hi) {
      Mapping part = m;
      part.begin = lo;
      part.end = hi;
      if (covered(c.current, c.ncurrent, part)) return true;
      lost = "the mapping " + address_text(lo) + "-" + address_text(hi) + " (" +
             std::string(m.perms, 4) + ") of the start was unmapped or its protection changed";
      return false;
    });
  }
  return lost;
}

// [lo, hi), but what is excluded (whole pages), into the pages to unmap.
bool add_unmap(Control& c, std::uintptr_t lo, std::uintptr_t hi) {
  return each_unexcluded(c, lo, hi, true, [&](std::uintptr_t a, std::uintptr_t b) {
    if (c.nunmap == kMaxPieces) return false;
    c.unmap[c.nunmap++] = {a, b};
    return true;
  });
}

// What is mapped now and was not at the start (not the heap's: brk takes it back; not a
// stack's growth), into c.unmap. False when there are too many pieces.
bool find_new_mappings(Control& c) {
  c.nunmap = 0;
  for (std::size_t i = 0; i < c.ncurrent; ++i) {
    const Mapping& m = c.current[i];
    if (m.kind == Kind::kHeap || m.kind == Kind::kStack) continue;
    std::uintptr_t at = m.begin;
    for (std::size_t j = 0; j < c.nmappings && at < m.end; ++j) {
      const Mapping& old = c.mappings[j];  // sorted by address
      if (old.end <= at) continue;
      if (old.begin >= m.end) break;
      if (old.begin > at && !add_unmap(c, at, old.begin)) return false;
      at = std::max(at, old.end);
    }
    if (at < m.end && !add_unmap(c, at, m.end)) return false;
  }
  return true;
}

Control* g_restoring = nullptr;  // for the restorer's stack, which gets no argument

// On the snapshot's own stack: every change below is past checking.
[[noreturn]] void finish_restore() {
  Control& c = *g_restoring;
  sigset_t all;
  sigfillset(&all);
  sys(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&all), 0, sizeof(std::uint64_t));
  sys(SYS_brk, static_cast<long>(c.brk));
  for (std::size_t i = 0; i < c.nunmap; ++i)
    sys(SYS_munmap, static_cast<long>(c.unmap[i].begin),
        static_cast<long>(c.unmap[i].end - c.unmap[i].begin));
  for (std::size_t i = 0; i < c.nfds; ++i)
    sys(SYS_dup3, c.fds[i].stash, c.fds[i].fd, c.fds[i].cloexec ? O_CLOEXEC : 0);
  // Descriptors opened since: closed (the saved ones and their stashes stay).
  int open_now[kMaxFds];
  const std::size_t nopen = std::min(count_dir("/proc/self/fd", c, open_now, kMaxFds), kMaxFds);
  for (std::size_t i = 0; i < nopen; ++i) {
    bool keep = open_now[i] == c.cwd_fd;
    for (std::size_t j = 0; j < c.nfds && !keep; ++j)
      keep = open_now[i] == c.fds[j].fd || open_now[i] == c.fds[j].stash;
    if (!keep) sys(SYS_close, open_now[i]);
  }
  for (int s = 1; s <= kSignals; ++s)
    if (c.has_action[s])
      sys(SYS_rt_sigaction, s, reinterpret_cast<long>(&c.actions[s]), 0, sizeof(std::uint64_t));
  sys(SYS_fchdir, c.cwd_fd);
  sys(SYS_umask, c.umask);
  for (std::size_t i = 0; i < c.npieces; ++i)
    copy(reinterpret_cast<char*>(c.pieces[i].begin), c.pieces[i].copy,
         c.pieces[i].end - c.pieces[i].begin);
  c.resuming = true;
  setcontext(&c.context);  // (restores the signal mask of the start too)
  _exit(127);              // unreachable: setcontext returns only on failure
}

}  // namespace

ProcessSnapshot::~ProcessSnapshot() {
  if (control_ == nullptr) return;
  for (std::size_t i = 0; i < control_->nfds; ++i) close(control_->fds[i].stash);
  if (control_->cwd_fd >= 0) close(control_->cwd_fd);
  if (control_->copies != nullptr) munmap(control_->copies, control_->copies_bytes);
  munmap(control_, sizeof(Control));
}

bool ProcessSnapshot::exclude(const void* begin, std::size_t bytes) {
  if (context() == nullptr || control_->nexcluded == kMaxExcluded) return false;
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  control_->excluded[control_->nexcluded++] = {b, b + bytes};
  return true;
}

ucontext_t* ProcessSnapshot::context() {
  if (control_ == nullptr) {
    void* p = mmap(nullptr, sizeof(Control), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    control_ = static_cast<Control*>(p);  // zeroes: see the types above
    control_->cwd_fd = -1;
    control_->excluded[control_->nexcluded++] = {
        reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + sizeof(Control)};
  }
  return &control_->context;
}

bool ProcessSnapshot::resumed() {
  if (control_ == nullptr || !control_->resuming) return false;
  control_->resuming = false;
  return true;
}

bool ProcessSnapshot::taken() const { return control_ != nullptr && control_->saved; }

std::size_t ProcessSnapshot::saved_bytes() const {
  return control_ != nullptr ? control_->saved_bytes : 0;
}

std::string ProcessSnapshot::take() {
  if (context() == nullptr) return "cannot map the snapshot's bookkeeping";
  Control& c = *control_;
  c.tid = static_cast<pid_t>(sys(SYS_gettid));
  if (!read_mappings(c, c.mappings, &c.nmappings)) return "too many mappings to snapshot";
  // The memory to save: private writable mappings, but what is excluded.
  c.npieces = 0;
  c.saved_bytes = 0;
  for (std::size_t i = 0; i < c.nmappings; ++i) {
    const Mapping& m = c.mappings[i];
    if (!m.private_writable()) continue;
    const bool fits =
        each_unexcluded(c, m.begin, m.end, false, [&](std::uintptr_t lo, std::uintptr_t hi) {
          if (c.npieces == kMaxPieces) return false;
          c.pieces[c.npieces++] = {lo, hi, nullptr};
          c.saved_bytes += hi - lo;
          return true;
        });
    if (!fits) return "too many pieces of memory to snapshot";
  }
  if (c.saved_bytes > kMaxSavedBytes)
    return "the process's writable memory (" + std::to_string(c.saved_bytes >> 20) +
           " MiB) is more than a snapshot copies (" + std::to_string(kMaxSavedBytes >> 20) +
           " MiB)";
  c.copies_bytes = (c.saved_bytes + kPage - 1) & ~(kPage - 1);
  void* copies = mmap(nullptr, c.copies_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (copies == MAP_FAILED) return "cannot map " + std::to_string(c.saved_bytes) + " bytes";
  c.copies = static_cast<char*>(copies);
  // The copies are a mapping of the start too (not to be unmapped), and never restored.
  const auto cb = reinterpret_cast<std::uintptr_t>(copies);
  if (c.nmappings == kMaxMappings || c.nexcluded == kMaxExcluded)
    return "too many mappings to snapshot";
  Mapping copies_mapping{cb, cb + c.copies_bytes, {'r', 'w', '-', 'p'}, Kind::kOther};
  Mapping* at =
      std::upper_bound(c.mappings, c.mappings + c.nmappings, copies_mapping,
                       [](const Mapping& a, const Mapping& b) { return a.begin < b.begin; });
  std::move_backward(at, c.mappings + c.nmappings, c.mappings + c.nmappings + 1);
  *at = copies_mapping;
  ++c.nmappings;
  c.excluded[c.nexcluded++] = {cb, cb + c.copies_bytes};

  // Descriptors: each kept as a duplicate high up, put back over whatever the execution
  // left at its number.
  int open_now[kMaxFds];
  const std::size_t nopen = count_dir("/proc/self/fd", c, open_now, kMaxFds);
  if (nopen > kMaxFds / 2) return "too many open descriptors to snapshot";
  struct rlimit lim {};
  getrlimit(RLIMIT_NOFILE, &lim);
  // Not at the very top of a large limit: the kernel's table grows to the highest number.
  const long top = static_cast<long>(std::min<rlim_t>(lim.rlim_cur, 4096));
  const long base = top - static_cast<long>(nopen) - 2;
  c.nfds = 0;
  for (std::size_t i = 0; i < nopen; ++i) {
    const int fd = open_now[i];
    const long flags = sys(SYS_fcntl, fd, F_GETFD);
    if (flags < 0) continue;
    const long stash = base > 64 ? sys(SYS_fcntl, fd, F_DUPFD_CLOEXEC, base) : -1;
    if (stash < 0) return "cannot keep a duplicate of descriptor " + std::to_string(fd);
    c.fds[c.nfds++] = {fd, static_cast<int>(stash), (flags & FD_CLOEXEC) != 0};
  }
  c.cwd_fd = static_cast<int>(
      sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>("."), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (c.cwd_fd < 0) return "cannot open the working directory";
  c.umask = static_cast<mode_t>(sys(SYS_umask, 0));
  sys(SYS_umask, c.umask);
  for (int s = 1; s <= kSignals; ++s)
    c.has_action[s] = sys(SYS_rt_sigaction, s, 0, reinterpret_cast<long>(&c.actions[s]),
                          sizeof(std::uint64_t)) == 0 &&
                      s != SIGKILL && s != SIGSTOP;
  c.brk = static_cast<std::uintptr_t>(sys(SYS_brk, 0));
  // Last, so that the copy holds all of the above as it is now.
  char* to = c.copies;
  for (std::size_t i = 0; i < c.npieces; ++i) {
    Piece& p = c.pieces[i];
    p.copy = to;
    copy(to, reinterpret_cast<const char*>(p.begin), p.end - p.begin);
    to += p.end - p.begin;
  }
  c.saved = true;
  return "";
}

std::string ProcessSnapshot::restore(void (*committed)(void*), void* arg) {
  if (!taken()) return "no snapshot was taken";
  Control& c = *control_;
  if (sys(SYS_gettid) != c.tid) return "the snapshot is restored by the thread that took it";
  if (const std::size_t n = count_dir("/proc/self/task", c); n != 1)
    return std::to_string(n - 1) + " other thread" + (n == 2 ? " is" : "s are") + " alive";
  if (!read_mappings(c, c.current, &c.ncurrent)) return "too many mappings to restore";
  if (std::string lost = lost_mapping(c); !lost.empty()) return lost;
  if (!find_new_mappings(c)) return "too many new mappings to unmap";
  for (std::size_t i = 0; i < c.nfds; ++i)
    if (sys(SYS_fcntl, c.fds[i].stash, F_GETFD) < 0)
      return "descriptor " + std::to_string(c.fds[i].stash) +
             ", weft's copy of the start's descriptor " + std::to_string(c.fds[i].fd) +
             ", was closed";
  if (sys(SYS_fcntl, c.cwd_fd, F_GETFD) < 0)
    return "the descriptor of the working directory was closed";
  // Past here, nothing fails: onto a stack of its own, then the memory goes back.
  if (committed != nullptr) committed(arg);
  g_restoring = &c;
  getcontext(&c.restorer);
  c.restorer.uc_stack.ss_sp = c.stack;
  c.restorer.uc_stack.ss_size = sizeof c.stack;
  c.restorer.uc_link = nullptr;
  makecontext(&c.restorer, &finish_restore, 0);
  setcontext(&c.restorer);
  return "cannot switch to the snapshot's stack";
}

}  // namespace weft::os
