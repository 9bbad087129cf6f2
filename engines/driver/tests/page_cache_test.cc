// EvictPageCache really drops a file's pages: mincore(2) on a mapping of
// freshly written, written-back files sees them resident before and gone
// after.
#include "page_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace lsmbench {
namespace {

namespace fs = std::filesystem;

// Pages of `path` in the page cache.
size_t ResidentPages(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0) << path;
  size_t size = fs::file_size(path), page = ::sysconf(_SC_PAGESIZE);
  void* base = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  EXPECT_NE(base, MAP_FAILED);
  std::vector<unsigned char> vec((size + page - 1) / page);
  EXPECT_EQ(::mincore(base, size, vec.data()), 0);
  ::munmap(base, size);
  ::close(fd);
  size_t n = 0;
  for (unsigned char v : vec) n += v & 1;
  return n;
}

void WriteBack(const std::string& path, size_t bytes) {
  { std::ofstream(path, std::ios::binary) << std::string(bytes, 'x'); }
  int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::fsync(fd), 0);
  ::close(fd);
}

class PageCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("page_cache_test." + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(PageCacheTest, DropsThePagesOfEveryFileBelow) {
  const std::string a = dir_ / "000005.ldb", b = dir_ / "sub" / "vlog";
  WriteBack(a, 1 << 20);
  WriteBack(b, 256 << 10);
  std::ifstream(a, std::ios::binary).ignore(1 << 20);  // read: cached now
  ASSERT_GT(ResidentPages(a), 0u);
  uint64_t files = 0;
  std::string err;
  ASSERT_TRUE(EvictPageCache(dir_, &files, &err)) << err;
  EXPECT_EQ(files, 2u);
  EXPECT_EQ(ResidentPages(a), 0u);
  EXPECT_EQ(ResidentPages(b), 0u);
}

TEST_F(PageCacheTest, AMissingFolderIsAnErrorNamingIt) {
  uint64_t files = 7;
  std::string err;
  EXPECT_FALSE(EvictPageCache(dir_ / "absent", &files, &err));
  EXPECT_EQ(files, 0u);
  EXPECT_NE(err.find("absent"), std::string::npos) << err;
}

}  // namespace
}  // namespace lsmbench
