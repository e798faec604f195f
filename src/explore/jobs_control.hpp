#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "core/jobs_layout.hpp"

namespace weft::explorer {

// weft run --jobs: the workers of one search share words (core/jobs_layout.hpp), among
// them the smallest global number (Shard::global) of an execution that found a bug. A
// worker stops before an execution numbered above it: every execution below the first
// bug runs, whatever the timing, so that the same bug is found first on every run.
class JobsControl {
 public:
  JobsControl(const std::string& path, std::uint32_t worker) {
    if (path.empty()) return;
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    const std::size_t words = JobsLayout::words(std::size_t{worker} + 1);
    void* p =
        mmap(nullptr, words * sizeof(std::uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return;
    auto* w = static_cast<std::atomic<std::uint64_t>*>(p);
    first_bug_ = w + JobsLayout::kFirstBug;
    started_ = w + JobsLayout::kStarted;
    executions_ = w + JobsLayout::executions(worker);
    bugs_ = w + JobsLayout::bugs(worker);
  }
  void progress(std::uint64_t executions, std::uint64_t bugs) {
    if (executions_ == nullptr) return;
    executions_->store(executions, std::memory_order_relaxed);
    bugs_->store(bugs, std::memory_order_relaxed);
  }
  bool active() const { return first_bug_ != nullptr; }
  // Systematic strategies share the --executions budget: their subtrees differ in size,
  // so an even split would stop one worker early while another still has work.
  bool take_execution(std::uint64_t budget) {
    return budget == 0 || started_->fetch_add(1, std::memory_order_relaxed) < budget;
  }
  // Another shard found a bug numbered below `global`.
  bool beaten(std::uint64_t global) const {
    return first_bug_ != nullptr && first_bug_->load(std::memory_order_acquire) < global;
  }
  void found(std::uint64_t global) {
    if (first_bug_ == nullptr) return;
    std::uint64_t now = first_bug_->load();
    while (global < now && !first_bug_->compare_exchange_weak(now, global)) {
    }
  }

 private:
  std::atomic<std::uint64_t>* first_bug_ = nullptr;
  std::atomic<std::uint64_t>* started_ = nullptr;     // executions started by all workers
  std::atomic<std::uint64_t>* executions_ = nullptr;  // this worker's
  std::atomic<std::uint64_t>* bugs_ = nullptr;
};

}  // namespace weft::explorer
