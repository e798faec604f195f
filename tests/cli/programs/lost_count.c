// Values in reports: two workers each add 41 to `count` by a read and a write (a lost
// update when both read before either writes), count their turns with a read-modify-write
// and claim `owner` with a compare-exchange that the second of them fails. Each also pays
// into a member of an array element: the report names it accounts[1].balance.
#undef NDEBUG  // the assertion is the bug, in any build type
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

int count;
atomic_int turns;
atomic_long owner;
struct account {
  long id;
  int balance;
} accounts[2];

static void* worker(void* id) {
  const int seen = count;
  atomic_fetch_add(&turns, 2);  // between the read and the write, as the compiler must
  count = seen + 41;
  accounts[1].balance += 5;
  long none = 0;
  atomic_compare_exchange_strong(&owner, &none, (long)(intptr_t)id);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void*)7);
  pthread_create(&b, 0, worker, (void*)9);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 82);
  return 0;
}
