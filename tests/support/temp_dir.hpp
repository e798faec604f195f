#pragma once
// A GoogleTest fixture with a directory of its own per test (the pid and the test's name:
// ctest -j runs tests side by side), removed after the test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace weft::test {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("weft-" + std::string(info->test_suite_name()) + "-" + std::to_string(getpid()) + "-" +
            info->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

}  // namespace weft::test
