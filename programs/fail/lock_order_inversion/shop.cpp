// An online shop: placing an order locks the order book, then the inventory (to reserve
// stock); a restock locks the inventory, then the order book (to fill back-orders). The
// two take the same two locks in opposite orders and can deadlock.
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Shop {
 public:
  explicit Shop(int stock) : stock_(stock) {}

  void place_order(const std::string& customer) {
    std::lock_guard<std::mutex> orders(orders_mutex_);
    std::lock_guard<std::mutex> inventory(inventory_mutex_);
    if (stock_ > 0) {
      --stock_;
      shipped_.push_back(customer);
    } else {
      backorders_.push_back(customer);
    }
  }

  void restock(int units) {
    std::lock_guard<std::mutex> inventory(inventory_mutex_);
    stock_ += units;
    std::lock_guard<std::mutex> orders(orders_mutex_);
    while (stock_ > 0 && !backorders_.empty()) {
      --stock_;
      shipped_.push_back(backorders_.back());
      backorders_.pop_back();
    }
  }

  std::size_t shipped() {
    std::lock_guard<std::mutex> orders(orders_mutex_);
    return shipped_.size();
  }

 private:
  std::mutex orders_mutex_;     // guards shipped_, backorders_
  std::mutex inventory_mutex_;  // guards stock_
  int stock_;
  std::vector<std::string> shipped_, backorders_;
};

int main() {
  Shop shop(0);
  std::thread customer([&] { shop.place_order("ada"); });
  std::thread supplier([&] { shop.restock(2); });
  customer.join();
  supplier.join();
  std::printf("%zu orders shipped\n", shop.shipped());
  return shop.shipped() == 1 ? 0 : 1;
}
