// Randomness from the system is the same in every execution: the worker count below
// comes from getrandom, getentropy, /dev/urandom (open and read, and fopen), and
// std::random_device, so a systematic search completes only if they do not change.
// With `print` as argument, the program prints what it drew and fails, so that its
// output shows.
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  unsigned a = 0, b = 0, c = 0, d = 0, e = 0;
  if (getrandom(&a, sizeof a, 0) != sizeof a) return 2;
  if (getentropy(&b, sizeof b) != 0) return 3;
  const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || read(fd, &c, sizeof c) != sizeof c) return 4;
  close(fd);
  std::ifstream in("/dev/urandom", std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(&d), sizeof d)) return 5;
  std::random_device rd;
  e = rd();
  std::mt19937 gen(a ^ b ^ c ^ d ^ e);
  const int workers = 2 + static_cast<int>(gen() % 2);
  std::mutex m;
  int n = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i)
    threads.emplace_back([&] {
      std::lock_guard<std::mutex> g(m);
      ++n;
    });
  for (std::thread& t : threads) t.join();
  if (n != workers) return 6;
  if (argc > 1 && std::strcmp(argv[1], "print") == 0) {
    std::printf("drew %08x %08x %08x %08x %08x\n", a, b, c, d, e);
    return 7;
  }
  return 0;
}
