// A withdrawal reads the balance in one critical section and writes it in another, each
// in a function run as if atomic (--no-preempt-in read_balance,write_balance): another
// withdrawal between the two loses an update. The regions' locks and accesses must carry
// their dependences into partial-order reduction, or dpor claims one class and misses it.
// With argument "one", each withdrawal takes the lock once for both: the correct twin.
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int balance = 20, calls, one_section;

int read_balance(void) {
  pthread_mutex_lock(&m);
  const int b = balance;
  pthread_mutex_unlock(&m);
  return b;
}

void write_balance(int b) {
  pthread_mutex_lock(&m);
  balance = b;
  pthread_mutex_unlock(&m);
}

void withdraw_at_once(int amount) {
  pthread_mutex_lock(&m);
  balance -= amount;
  pthread_mutex_unlock(&m);
}

static void* withdraw(void* arg) {
  (void)arg;
  if (one_section) {
    __atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST);
    withdraw_at_once(10);
    return 0;
  }
  const int b = read_balance();
  __atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST);  // a scheduling point between the two
  write_balance(b - 10);
  return 0;
}

int main(int argc, char** argv) {
  one_section = argc > 1 && strcmp(argv[1], "one") == 0;
  pthread_t x, y;
  pthread_create(&x, 0, withdraw, 0);
  pthread_create(&y, 0, withdraw, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  assert(balance == 0);
  return 0;
}
