#include "page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

namespace lsmbench {

bool EvictPageCache(const std::string& dir, uint64_t* files, std::string* err) {
  namespace fs = std::filesystem;
  *files = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) {
    *err = dir + ": " + ec.message();
    return false;
  }
  for (; it != end; it.increment(ec)) {
    if (ec) {
      *err = dir + ": " + ec.message();
      return false;
    }
    if (!it->is_regular_file(ec)) continue;
    const std::string path = it->path().string();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *err = path + ": open: " + std::strerror(errno);
      return false;
    }
    int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (rc != 0) {
      *err = path + ": posix_fadvise(DONTNEED): " + std::strerror(rc);
      return false;
    }
    ++*files;
  }
  return true;
}

}  // namespace lsmbench
