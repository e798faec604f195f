// A report never waits on the network: with DEBUGINFOD_URLS set (Debian's profile sets
// it), symbolizing a library without local debug info must not ask a debuginfod server.
// Its own binary: libdw reads DEBUGINFOD_URLS once, at its first use in the process.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>

#include "report/symbolizer.hpp"

namespace weft {
namespace {

// A local "debuginfod server" that counts connections and drops them at once.
class CountingServer {
 public:
  CountingServer() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      return;
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, 20) == 1) {
          int c = accept(fd_, nullptr, nullptr);
          if (c >= 0) {
            ++connections_;
            close(c);
          }
        }
      }
    });
  }
  ~CountingServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

TEST(Symbolizer, NeverAsksADebuginfodServer) {
  CountingServer server;
  ASSERT_NE(server.port(), 0);
  std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("weft-debuginfod-" + std::to_string(getpid()));
  std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  setenv("DEBUGINFOD_URLS", url.c_str(), 1);
  setenv("DEBUGINFOD_CACHE_PATH", cache.c_str(), 1);
  setenv("DEBUGINFOD_TIMEOUT", "2", 1);

  // Inside libstdc++, which has no local debug info unless a -dbg package is installed.
  auto pc = reinterpret_cast<std::uintptr_t>(&std::terminate) + 8;
  {
    Symbolizer sym;
    EXPECT_EQ(sym.symbolize(pc).module.rfind("libstdc++.so", 0), 0u);
  }
  EXPECT_EQ(server.connections(), 0);

  // The control: libdw's standard lookup does ask, so the server would have seen us.
  if (dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD) != nullptr ||
      dlopen("libdebuginfod.so.1", RTLD_LAZY) != nullptr) {
    Dwfl_Callbacks standard = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo,
                               nullptr, nullptr};
    Dwfl* dwfl = dwfl_begin(&standard);
    dwfl_report_begin(dwfl);
    dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, nullptr, nullptr);
    Dwfl_Module* mod = dwfl_addrmodule(dwfl, pc - 1);
    ASSERT_NE(mod, nullptr);
    Dwarf_Addr bias = 0;
    if (dwfl_module_getdwarf(mod, &bias) == nullptr) {
      // No local debug info: the standard lookup asked the server.
      EXPECT_GT(server.connections(), 0);
    }
    dwfl_end(dwfl);
  }
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
}

}  // namespace
}  // namespace weft
