// A run's temporary directory (cli/run_directory.hpp): another weft starting at the same
// moment in the same TMPDIR may sweep a directory just made, still empty and unlocked,
// before it is opened; that run then makes another rather than failing ("cannot lock the
// temporary directory ...: No such file or directory", seen with two test suites sharing
// /tmp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cli/run_directory.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using weft::cli::RunDirectory;

namespace {

class RunDirectories : public weft::test::TempDirTest {};

TEST_F(RunDirectories, ADirectorySweptBeforeItIsOpenedIsMadeAgain) {
  const fs::path made = dir_ / "weft-abcdef";
  fs::create_directory(made);
  fs::remove(made);  // another run's sweep, between mkdtemp and open
  EXPECT_EQ(RunDirectory::lock_made(made), RunDirectory::kSwept);
}

TEST_F(RunDirectories, ADirectoryStillThereIsLockedAndKept) {
  const fs::path made = dir_ / "weft-abcdef";
  fs::create_directory(made);
  const int fd = RunDirectory::lock_made(made);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(RunDirectory::sweep(dir_), 0u) << "locked: not abandoned";
  EXPECT_TRUE(fs::exists(made));
  close(fd);
  EXPECT_EQ(RunDirectory::sweep(dir_), 1u) << "empty and unlocked: abandoned";
}

TEST_F(RunDirectories, AMadeDirectoryIsMarkedAndRemoved) {
  setenv("TMPDIR", dir_.c_str(), 1);
  fs::path path;
  {
    RunDirectory run;
    ASSERT_EQ(run.make(), "");
    path = run.path();
    EXPECT_EQ(path.parent_path(), dir_);
    EXPECT_TRUE(fs::exists(path / ".weft-run"));
  }
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
