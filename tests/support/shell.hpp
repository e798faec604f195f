#pragma once
// Runs a shell command for the end-to-end tests: its exit status and what it printed on
// stdout, with stderr redirected as `stderr_to` says (by default into stdout).
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace weft::test {

struct Output {
  int status = -1;  // the exit status; -1 when killed by a signal
  std::string out;
  bool has(const std::string& text) const { return out.find(text) != std::string::npos; }
};

inline Output sh(const std::string& command, const std::string& stderr_to = "2>&1") {
  Output o;
  FILE* p = popen((command + " " + stderr_to).c_str(), "r");
  if (p == nullptr) return o;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  const int st = pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

// A command prefix: no sharding variable of the machine running the tests leaks into the
// command (Bazel's, GoogleTest's, Slurm's, Kubernetes', weft's own).
inline const std::string kNoSharding =
    "env -u TEST_SHARD_INDEX -u TEST_TOTAL_SHARDS -u TEST_SHARD_STATUS_FILE -u GTEST_SHARD_INDEX "
    "-u GTEST_TOTAL_SHARDS -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT -u "
    "SLURM_ARRAY_TASK_MIN -u JOB_COMPLETION_INDEX -u WEFT_SHARDS -u WEFT_SHARD ";

}  // namespace weft::test
