// A lost update whose report would inject HTML into the page if the page did not escape
// what it shows: the program's output, a thread's name, a template function's name and
// an assertion's message all hold markup.
#undef NDEBUG  // the assertion is the bug, in every build type
#include <pthread.h>

#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

template <class T>
struct Tag {};

std::mutex m;
int counter = 0;

void add() {
  m.lock();
  const int seen = counter;
  m.unlock();
  m.lock();
  counter = seen + 1;
  m.unlock();
}

template <class T>
__attribute__((noinline)) void check(int total) {
  assert(total == 2 && "<b id=from-assert>bold</b>");
}

int main() {
  std::printf("<script>document.title='injected'</script><b id=from-output>bold</b> & more\n");
  std::fflush(stdout);
  std::thread a([] {
    pthread_setname_np(pthread_self(), "<i id=tn>");
    add();
  });
  std::thread b(add);
  a.join();
  b.join();
  check<Tag<int>>(counter);
}
