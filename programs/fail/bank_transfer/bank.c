// A bank with one lock per account. transfer() checks the balance before taking the lock
// (check-then-act): two transfers out of the same account can both pass the check and
// overdraw it.
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
  if (from->balance < amount) return -1;  // insufficient funds

  pthread_mutex_lock(&from->lock);
  from->balance -= amount;
  pthread_mutex_unlock(&from->lock);

  pthread_mutex_lock(&to->lock);
  to->balance += amount;
  pthread_mutex_unlock(&to->lock);
  return 0;
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
