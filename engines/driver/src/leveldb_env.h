// How the LevelDB family reads table files: `-o read_mode=mmap|pread` and
// `-o read_advice=normal|random`, for every LevelDB adapter.
//
// LevelDB 1.23's POSIX Env mmaps up to 1000 table files on 64-bit hosts, so
// a lookup's bytes come in by page faults plus the kernel's read-ahead (a
// get under a memory limit read ~1.6 MiB). ReadEnv wraps the default Env:
//   mmap  + normal  LevelDB's own files (the pristine behaviour, default)
//   mmap  + random  our mmap with madvise(MADV_RANDOM): no fault-around
//   pread + normal  pread(2) of exactly the bytes asked for
//   pread + random  pread(2) after posix_fadvise(POSIX_FADV_RANDOM): no
//                   read-ahead, so a read of n bytes fetches ~n bytes
// Only table files change; logs, MANIFEST and writes are LevelDB's own.
// IoCounters reads /proc/self/io so the log can show the bytes a lookup
// really fetched from storage (read_bytes) and asked for (rchar).
#ifndef LSMBENCH_LEVELDB_ENV_H_
#define LSMBENCH_LEVELDB_ENV_H_

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "leveldb/env.h"
#include "leveldb/slice.h"
#include "leveldb/status.h"

namespace lsmbench {

class ReadEnv : public leveldb::EnvWrapper {
 public:
  ReadEnv(bool pread, bool random)
      : leveldb::EnvWrapper(leveldb::Env::Default()), pread_(pread), random_(random) {}

  leveldb::Status NewRandomAccessFile(const std::string& fname,
                                      leveldb::RandomAccessFile** result) override {
    if (!pread_ && !random_) return target()->NewRandomAccessFile(fname, result);
    *result = nullptr;
    int fd = ::open(fname.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error(fname, errno);
    if (pread_) {
      if (random_) ::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
      *result = new PreadFile(fname, fd);
      return leveldb::Status::OK();
    }
    struct ::stat st;
    if (::fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      return Error(fname, e);
    }
    size_t size = static_cast<size_t>(st.st_size);
    void* base = size ? ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0) : nullptr;
    int e = errno;
    ::close(fd);
    if (size && base == MAP_FAILED) return Error(fname, e);
    if (size) ::madvise(base, size, MADV_RANDOM);
    *result = new MmapFile(fname, static_cast<char*>(base), size);
    return leveldb::Status::OK();
  }

  const char* mode() const { return pread_ ? "pread" : "mmap"; }
  const char* advice() const { return random_ ? "random" : "normal"; }

 private:
  static leveldb::Status Error(const std::string& fname, int e) {
    return e == ENOENT ? leveldb::Status::NotFound(fname, std::strerror(e))
                       : leveldb::Status::IOError(fname, std::strerror(e));
  }

  class PreadFile : public leveldb::RandomAccessFile {
   public:
    PreadFile(std::string name, int fd) : name_(std::move(name)), fd_(fd) {}
    ~PreadFile() override { ::close(fd_); }
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char* scratch) const override {
      size_t got = 0;
      while (got < n) {
        ssize_t r = ::pread(fd_, scratch + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
          *result = leveldb::Slice(scratch, 0);
          return Error(name_, errno);
        }
        if (r == 0) break;
        got += static_cast<size_t>(r);
      }
      *result = leveldb::Slice(scratch, got);
      return leveldb::Status::OK();
    }

   private:
    const std::string name_;
    const int fd_;
  };

  class MmapFile : public leveldb::RandomAccessFile {
   public:
    MmapFile(std::string name, char* base, size_t size)
        : name_(std::move(name)), base_(base), size_(size) {}
    ~MmapFile() override {
      if (base_) ::munmap(base_, size_);
    }
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char*) const override {
      if (offset + n > size_) {
        *result = leveldb::Slice();
        return leveldb::Status::IOError(name_, "read past the end of the file");
      }
      *result = leveldb::Slice(base_ + offset, n);
      return leveldb::Status::OK();
    }

   private:
    const std::string name_;
    char* const base_;
    const size_t size_;
  };

  const bool pread_, random_;
};

// /proc/self/io: bytes this process asked for (rchar) and fetched from
// storage (read_bytes). Zeros where the file is missing.
struct IoCounters {
  uint64_t rchar = 0, read_bytes = 0;
  static IoCounters Now() {
    IoCounters c;
    std::ifstream in("/proc/self/io");
    std::string key;
    uint64_t v;
    while (in >> key >> v) {
      if (key == "rchar:") c.rchar = v;
      if (key == "read_bytes:") c.read_bytes = v;
    }
    return c;
  }
};

}  // namespace lsmbench

#endif  // LSMBENCH_LEVELDB_ENV_H_
