// Two named threads lose an update to a counter in a heap object made with new: the report
// must call the threads by their names and the counter by the heap block new made.
#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <thread>

struct Tally {
  long padding = 0;
  int count = 0;
};

int main() {
  Tally* tally = new Tally;  // NEW-TALLY
  // A local of main's the threads report to (after the lost update): a stack object
  // whatever the compiler keeps on the stack around std::thread.
  std::atomic<int> done{0};
  auto add = [tally, &done](const char* name) {
    pthread_setname_np(pthread_self(), name);
    int seen = tally->count;
    tally->count = seen + 1;
    done.fetch_add(1);
  };
  std::thread a(add, "adder-a"), b(add, "adder-b");
  a.join();
  b.join();
  if (tally->count != 2) abort();  // not assert: NDEBUG builds drop it
  delete tally;
  return 0;
}
