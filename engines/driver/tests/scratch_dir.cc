// The driver's tests write their run logs under ::testing::TempDir(). This
// gives each test process a folder of its own there and removes it at the
// end, so a test run leaves nothing in /tmp (ctest runs every test as a
// process of its own, and each named its files by pid: they piled up).

#include <stdlib.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace {

class ScratchDir : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "driver_tests_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr) << pattern;
    dir_ = pattern;
    // TempDir() reads TEST_TMPDIR at each call.
    ASSERT_EQ(setenv("TEST_TMPDIR", dir_.c_str(), 1), 0);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  std::string dir_;
};

::testing::Environment* const kScratchDir = ::testing::AddGlobalTestEnvironment(new ScratchDir);

}  // namespace
