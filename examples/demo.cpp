// `make demo`: weft finds a real bug in a bank, prints it, and replays it.
//
// Two tellers move money between accounts. Each transfer checks the balance, then moves
// the money, each step under the account's own lock, but the check and the move are not
// one atomic step: under one interleaving both transfers pass the check and the account
// goes negative.
#include <weft/weft.hpp>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

namespace {

struct Account {
  std::mutex lock;
  int balance = 0;
  int read() {
    std::lock_guard<std::mutex> g(lock);
    return balance;
  }
  void add(int amount) {
    std::lock_guard<std::mutex> g(lock);
    balance += amount;
  }
};

bool transfer(Account& from, Account& to, int amount) {
  if (from.read() < amount) return false;  // check...
  from.add(-amount);                       // ...then act: another transfer may come between
  to.add(amount);
  return true;
}

void bank() {
  Account checking, savings, rent;
  checking.balance = 100;
  std::thread teller1([&] { transfer(checking, savings, 80); });
  std::thread teller2([&] { transfer(checking, rent, 50); });
  teller1.join();
  teller2.join();
  WEFT_ASSERT(checking.balance >= 0);
}

}  // namespace

int main() {
  std::cout << "weft demo: exploring a two-teller bank (strategy random, 10000 executions)\n\n";
  weft::Result r = weft::explore(bank, {.strategy = "random", .executions = 10000, .seed = 1});
  std::cout << r.report() << "\n";
  if (r.ok()) {
    std::cout << "weft demo: no bug found (unexpected)\n";
    return 1;
  }
  const weft::Bug& bug = r.bugs()[0];
  std::cout << "weft demo: replaying the schedule of the bug...\n";
  weft::Result again = weft::replay(bank, bug.schedule());
  if (!again.failed() || again.bugs()[0].message() != bug.message()) {
    std::cout << "weft demo: the replay did not reproduce the bug\n" << again.report();
    return 1;
  }
  std::cout << "weft demo: the replay reproduced it exactly: " << again.bugs()[0].message()
            << " after " << again.bugs()[0].steps() << " steps ("
            << again.bugs()[0].preemptions() << " preemptions)\n";
  return 0;
}
