// ProcessSnapshot: a process run again and again from one snapshot finds, each time, the
// memory, break, mappings, descriptors, signal dispositions, directory and umask of the
// start; what cannot be put back is refused before anything changes. Each case runs in a
// child process of its own (a restore puts back gtest's memory too).
#include "sys/process_snapshot.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {

using weft::os::ProcessSnapshot;

constexpr int kRounds = 40;

int g_counter = 0;        // .bss
int g_initialised = 17;   // .data
char* g_block = nullptr;  // a heap block made before the snapshot
int g_round = 0;          // excluded: outlives restores
int g_start_fds = -1;     // excluded: what round 0 saw (weft's duplicates among them)
void* g_start_mapping = nullptr;

int open_descriptors() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n - 1;  // opendir's own
}

std::string cwd() {
  char buf[4096];
  return getcwd(buf, sizeof buf) != nullptr ? buf : "";
}

void on_usr1(int) {}

// In a child: `body(round)` after the snapshot and after each restore, `rounds` times;
// the child's exit status is 0 when every round found the start (and, with `refusal`,
// when the restore after the first round refused, naming it), else it says what differed.
int run_child(int rounds, const std::function<std::string(int)>& body,
              const std::string& refusal = "") {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    auto* snap = new ProcessSnapshot;
    if (!snap->exclude(&g_round, sizeof g_round) ||
        !snap->exclude(&g_start_fds, sizeof g_start_fds))
      _exit(90);
    const int local = 4242 + g_initialised;  // a value in this frame, to find again
    if (getcontext(snap->context()) != 0) _exit(91);
    if (!snap->resumed()) {
      const std::string e = snap->take();
      if (!e.empty()) {
        std::fprintf(stderr, "take: %s\n", e.c_str());
        _exit(92);
      }
    }
    if (local != 4242 + 17) _exit(93);
    if (const std::string e = body(g_round++); !e.empty()) {
      std::fprintf(stderr, "round %d: %s\n", g_round - 1, e.c_str());
      _exit(94);
    }
    if (g_round == rounds) _exit(0);
    const std::string e = snap->restore();  // returns only when it refuses
    if (!refusal.empty() && e.find(refusal) != std::string::npos) _exit(0);
    std::fprintf(stderr, "restore refused: %s\n", e.c_str());
    _exit(95);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ProcessSnapshot, EveryRoundFindsTheStart) {
  g_block = static_cast<char*>(std::malloc(64));
  std::strcpy(g_block, "start");
  g_start_mapping = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  static_cast<char*>(g_start_mapping)[0] = 's';
  umask(022);
  const std::string dir = cwd();
  const int status = run_child(kRounds, [&](int round) -> std::string {
    // What the start had.
    if (g_counter != 0 || g_initialised != 17) return "globals changed";
    if (std::strcmp(g_block, "start") != 0) return "heap block changed";
    if (static_cast<char*>(g_start_mapping)[0] != 's') return "mapping contents changed";
    if (round == 0) g_start_fds = open_descriptors();
    if (open_descriptors() != g_start_fds)
      return "descriptors: " + std::to_string(open_descriptors());
    if (cwd() != dir) return "directory " + cwd();
    const mode_t mask = umask(0);
    if (mask != 022) return "umask " + std::to_string(mask);
    struct sigaction sa {};
    sigaction(SIGUSR1, nullptr, &sa);
    if (sa.sa_handler != SIG_DFL) return "SIGUSR1 has a handler";
    // Changes of every kind.
    g_counter = round + 1;
    g_initialised = 0;
    std::strcpy(g_block, "changed");
    static_cast<char*>(g_start_mapping)[0] = 'x';
    for (int i = 0; i < 100; ++i) static_cast<char*>(std::malloc(1000))[0] = 1;  // heap grows
    void* big = std::malloc(8 << 20);  // a mapping of its own
    std::memset(big, 1, 4096);
    void* mine = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    static_cast<char*>(mine)[0] = 1;
    int p[2];
    if (pipe(p) != 0 || open("/proc/self/stat", O_RDONLY) < 0) return "cannot open";
    dup2(p[0], 0);  // over a descriptor of the start
    signal(SIGUSR1, &on_usr1);
    if (chdir("/") != 0) return "cannot chdir";
    umask(077);
    return "";
  });
  EXPECT_EQ(status, 0);
}

TEST(ProcessSnapshot, ExcludedMemoryOutlivesRestores) {
  const int status = run_child(kRounds, [](int round) -> std::string {
    return round == g_round - 1 ? "" : "the round was restored";
  });
  EXPECT_EQ(status, 0);
}

void* wait_forever(void*) {
  for (;;) pause();
}

TEST(ProcessSnapshot, RefusesWhileAnotherThreadLives) {
  const int status = run_child(
      2,
      [](int) -> std::string {
        pthread_t t;
        return pthread_create(&t, nullptr, &wait_forever, nullptr) == 0 ? "" : "no thread";
      },
      "1 other thread is alive");
  EXPECT_EQ(status, 0);
}

TEST(ProcessSnapshot, RefusesAMappingOfTheStartUnmapped) {
  g_start_mapping = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const int status = run_child(
      2,
      [](int) -> std::string {
        munmap(g_start_mapping, 4096);
        return "";
      },
      "was unmapped or its protection changed");
  EXPECT_EQ(status, 0);
}

TEST(ProcessSnapshot, RefusesAProtectionChanged) {
  g_start_mapping = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const int status = run_child(
      2,
      [](int) -> std::string {
        mprotect(g_start_mapping, 4096, PROT_READ);
        return "";
      },
      "was unmapped or its protection changed");
  EXPECT_EQ(status, 0);
}

TEST(ProcessSnapshot, RefusesWhenItsDescriptorsWereClosed) {
  const int status = run_child(
      2,
      [](int) -> std::string {
        for (int fd = 3; fd < 4096; ++fd) close(fd);
        return "";
      },
      "was closed");
  EXPECT_EQ(status, 0);
}

}  // namespace
