// A bank with one lock per account. transfer() takes both accounts' locks, always in the
// same (address) order, and checks the balance while holding them.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct account {
  pthread_mutex_t lock;
  long balance;
};

static struct account accounts[3] = {
    {PTHREAD_MUTEX_INITIALIZER, 100},
    {PTHREAD_MUTEX_INITIALIZER, 0},
    {PTHREAD_MUTEX_INITIALIZER, 0},
};

static int transfer(struct account* from, struct account* to, long amount) {
  struct account* first = from < to ? from : to;
  struct account* second = from < to ? to : from;
  int ok;

  pthread_mutex_lock(&first->lock);
  pthread_mutex_lock(&second->lock);
  ok = from->balance >= amount;
  if (ok) {
    from->balance -= amount;
    to->balance += amount;
  }
  pthread_mutex_unlock(&second->lock);
  pthread_mutex_unlock(&first->lock);
  return ok ? 0 : -1;
}

struct order {
  int from, to;
  long amount;
};

static void* teller(void* arg) {
  const struct order* o = arg;
  if (transfer(&accounts[o->from], &accounts[o->to], o->amount) != 0)
    printf("declined: %ld from account %d\n", o->amount, o->from);
  return NULL;
}

int main(void) {
  struct order rent = {0, 1, 80}, groceries = {0, 2, 50}, refund = {2, 0, 10};
  pthread_t a, b, c;
  pthread_create(&a, NULL, teller, &rent);
  pthread_create(&b, NULL, teller, &groceries);
  pthread_create(&c, NULL, teller, &refund);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);

  long total = 0;
  for (int i = 0; i < 3; ++i) {
    printf("account %d: %ld\n", i, accounts[i].balance);
    assert(accounts[i].balance >= 0);
    total += accounts[i].balance;
  }
  assert(total == 100);
  return 0;
}
