// Copyright (c) 2026 The lsmrepro authors. Use of this source code is
// governed by a BSD-style license that can be found in the LICENSE file of
// LevelDB, which this file extends.
#include "layers/wisckey/value_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "db/write_batch_internal.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace leveldb {

namespace {

Status PosixError(const std::string& context, int error_number) {
  return Status::IOError(context, std::strerror(error_number));
}

std::string VlogFileName(const std::string& dbname, uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "/%06" PRIu64 ".vlog", number);
  return dbname + buf;
}

// Numbers of the "NNNNNN.vlog" files in `dbname`, ascending.
std::vector<uint64_t> ListVlogFiles(const std::string& dbname) {
  std::vector<uint64_t> out;
  DIR* dir = ::opendir(dbname.c_str());
  if (dir == nullptr) return out;
  while (struct dirent* e = ::readdir(dir)) {
    const char* name = e->d_name;
    size_t len = std::strlen(name);
    if (len <= 5 || std::strcmp(name + len - 5, ".vlog") != 0) continue;
    uint64_t number = 0;
    bool digits = true;
    for (size_t i = 0; i < len - 5; i++) {
      if (name[i] < '0' || name[i] > '9') digits = false;
      number = number * 10 + (name[i] - '0');
    }
    if (digits) out.push_back(number);
  }
  ::closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

bool ReadFully(int fd, char* buf, size_t n, uint64_t offset, size_t* got) {
  *got = 0;
  while (*got < n) {
    ssize_t r = ::pread(fd, buf + *got, n - *got, offset + *got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return false;
    if (r == 0) break;
    *got += r;
  }
  return true;
}

// Length of the prefix of the file made of whole records with good crcs.
// Reads the file in large chunks: a load's log holds millions of small
// records, and a read or two per record made every open syscall-bound
// (seconds per open of a 5M-record log).
Status ValidPrefix(int fd, uint64_t size, uint64_t* valid) {
  static constexpr size_t kChunk = 4 << 20;
  *valid = 0;
  std::string buf(kChunk, '\0');
  uint64_t buf_offset = 0;  // file offset of buf[0]
  size_t buf_len = 0;       // bytes of buf read from the file
  // The `need` bytes of the file at *valid, or null when the file ends
  // (or is cut short) before them.
  auto bytes = [&](uint64_t need, const char** out) -> Status {
    *out = nullptr;
    size_t start = *valid - buf_offset;
    if (start + need > buf_len) {
      std::memmove(&buf[0], buf.data() + start, buf_len - start);
      buf_len -= start;
      buf_offset = *valid;
      start = 0;
      if (need > buf.size()) buf.resize(need);
      uint64_t want = std::min<uint64_t>(buf.size() - buf_len,
                                         size - (buf_offset + buf_len));
      size_t got;
      if (!ReadFully(fd, &buf[buf_len], want, buf_offset + buf_len, &got)) {
        return PosixError("value log scan", errno);
      }
      buf_len += got;
      if (need > buf_len) return Status::OK();
    }
    *out = buf.data() + start;
    return Status::OK();
  };
  while (*valid + ValueLog::kHeaderSize <= size) {
    const char* header;
    Status s = bytes(ValueLog::kHeaderSize, &header);
    if (!s.ok()) return s;
    if (header == nullptr) break;
    uint64_t length = ValueLog::kHeaderSize +
                      uint64_t{DecodeFixed32(header + 4)} +
                      DecodeFixed32(header + 8);
    if (*valid + length > size) break;
    const char* record;
    s = bytes(length, &record);
    if (!s.ok()) return s;
    if (record == nullptr) break;
    uint32_t expected = crc32c::Unmask(DecodeFixed32(record));
    if (crc32c::Value(record + 4, length - 4) != expected) break;
    *valid += length;
  }
  return Status::OK();
}

}  // namespace

Status ValueLog::Open(const std::string& dbname, const Comparator* ucmp,
                      Logger* info_log, ValueLog** result) {
  *result = nullptr;
  ValueLog* vlog = new ValueLog(dbname, ucmp);
  uint64_t next_number = 1;
  Status s;
  for (uint64_t number : ListVlogFiles(dbname)) {
    next_number = number + 1;
    std::string name = VlogFileName(dbname, number);
    int fd = ::open(name.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      s = PosixError(name, errno);
      break;
    }
    off_t size = ::lseek(fd, 0, SEEK_END);
    uint64_t valid = 0;
    s = size < 0 ? PosixError(name, errno) : ValidPrefix(fd, size, &valid);
    if (s.ok() && valid < static_cast<uint64_t>(size)) {
      // A write cut short by a crash (or a corrupt record): the pointers to
      // it, if any reached the LSM, read as Corruption from now on.
      Log(info_log, "value log %s: dropping %" PRIu64 " bytes after %" PRIu64,
          name.c_str(), static_cast<uint64_t>(size) - valid, valid);
      if (::ftruncate(fd, valid) != 0) s = PosixError(name, errno);
    }
    if (!s.ok()) {
      ::close(fd);
      break;
    }
    if (valid == 0) {  // holds nothing any pointer could name
      ::close(fd);
      ::unlink(name.c_str());
      continue;
    }
    vlog->bytes_at_open_ += valid;
    vlog->files_.push_back({number, fd});
  }
  if (s.ok()) {
    std::string name = VlogFileName(dbname, next_number);
    int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      s = PosixError(name, errno);
    } else {
      vlog->files_.push_back({next_number, fd});
      // The new name must survive a machine crash before a synced write
      // points into the file.
      int dir = ::open(dbname.c_str(), O_RDONLY | O_CLOEXEC);
      if (dir < 0 || ::fsync(dir) != 0) s = PosixError(dbname, errno);
      if (dir >= 0) ::close(dir);
    }
  }
  if (!s.ok()) {
    delete vlog;
    return s;
  }
  *result = vlog;
  return s;
}

void ValueLog::RemoveFiles(const std::string& dbname) {
  for (uint64_t number : ListVlogFiles(dbname)) {
    ::unlink(VlogFileName(dbname, number).c_str());
  }
}

ValueLog::~ValueLog() {
  for (const File& f : files_) ::close(f.fd);
}

Status ValueLog::Separate(const WriteBatch& batch, bool sync,
                          WriteBatch** separated) {
  class Separator : public WriteBatch::Handler {
   public:
    Separator(ValueLog* log) : log_(log) {}
    void Put(const Slice& key, const Slice& value) override {
      std::string& buf = log_->buffer_;
      size_t start = buf.size();
      buf.append(4, '\0');  // crc, filled below
      PutFixed32(&buf, static_cast<uint32_t>(key.size()));
      PutFixed32(&buf, static_cast<uint32_t>(value.size()));
      buf.append(key.data(), key.size());
      buf.append(value.data(), value.size());
      size_t length = buf.size() - start;
      EncodeFixed32(&buf[start],
                    crc32c::Mask(crc32c::Value(&buf[start + 4], length - 4)));
      char ptr[kPointerSize];
      EncodeFixed32(ptr, static_cast<uint32_t>(log_->files_.back().number));
      EncodeFixed64(ptr + 4, log_->append_offset_ + start);
      EncodeFixed32(ptr + 12, static_cast<uint32_t>(length));
      log_->separated_.Put(key, Slice(ptr, sizeof(ptr)));
    }
    void Delete(const Slice& key) override { log_->separated_.Delete(key); }

   private:
    ValueLog* log_;
  };

  buffer_.clear();
  separated_.Clear();
  Separator separator(this);
  Status s = batch.Iterate(&separator);
  if (!s.ok()) return s;
  WriteBatchInternal::SetSequence(&separated_,
                                  WriteBatchInternal::Sequence(&batch));
  const int fd = files_.back().fd;
  size_t done = 0;
  while (done < buffer_.size()) {
    ssize_t w = ::pwrite(fd, buffer_.data() + done, buffer_.size() - done,
                         append_offset_ + done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return PosixError("value log write", errno);
    done += w;
  }
  append_offset_ += done;
  appended_.fetch_add(done, std::memory_order_relaxed);
  if (sync && done > 0 && ::fdatasync(fd) != 0) {
    return PosixError("value log sync", errno);
  }
  *separated = &separated_;
  return Status::OK();
}

const ValueLog::File* ValueLog::FindFile(uint64_t number) const {
  auto it = std::lower_bound(
      files_.begin(), files_.end(), number,
      [](const File& f, uint64_t n) { return f.number < n; });
  return it != files_.end() && it->number == number ? &*it : nullptr;
}

Status ValueLog::Resolve(const Slice& key, bool verify_checksums,
                         std::string* value) const {
  if (value->size() != kPointerSize) {
    return Status::Corruption("value pointer has the wrong size");
  }
  const char* p = value->data();
  const uint64_t number = DecodeFixed32(p);
  const uint64_t offset = DecodeFixed64(p + 4);
  const uint32_t length = DecodeFixed32(p + 12);
  const File* file = FindFile(number);
  if (file == nullptr) {
    return Status::Corruption("value pointer names a missing value log file");
  }
  if (length < kHeaderSize + key.size()) {
    return Status::Corruption("value pointer with a bad length");
  }
  char stack[256];
  std::string heap;
  char* buf = stack;
  if (length > sizeof(stack)) {
    heap.resize(length);
    buf = &heap[0];
  }
  size_t got;
  if (!ReadFully(file->fd, buf, length, offset, &got)) {
    return PosixError("value log read", errno);
  }
  if (got < length) return Status::Corruption("value log record cut short");
  const uint32_t key_size = DecodeFixed32(buf + 4);
  const uint32_t value_size = DecodeFixed32(buf + 8);
  if (kHeaderSize + uint64_t{key_size} + value_size != length ||
      ucmp_->Compare(Slice(buf + kHeaderSize, key_size), key) != 0) {
    return Status::Corruption("value log record does not match its pointer");
  }
  if (verify_checksums &&
      crc32c::Unmask(DecodeFixed32(buf)) != crc32c::Value(buf + 4, length - 4)) {
    return Status::Corruption("value log record checksum mismatch");
  }
  value->assign(buf + kHeaderSize + key_size, value_size);
  return Status::OK();
}

namespace {

class ValueResolvingIterator : public Iterator {
 public:
  ValueResolvingIterator(Iterator* base, const ValueLog* vlog, bool verify)
      : base_(base), vlog_(vlog), verify_(verify) {}
  ~ValueResolvingIterator() override { delete base_; }

  bool Valid() const override { return base_->Valid(); }
  void SeekToFirst() override { Moved(), base_->SeekToFirst(); }
  void SeekToLast() override { Moved(), base_->SeekToLast(); }
  void Seek(const Slice& target) override { Moved(), base_->Seek(target); }
  void Next() override { Moved(), base_->Next(); }
  void Prev() override { Moved(), base_->Prev(); }
  Slice key() const override { return base_->key(); }
  Slice value() const override {
    if (!resolved_) {
      value_ = base_->value().ToString();
      Status s = vlog_->Resolve(base_->key(), verify_, &value_);
      if (!s.ok()) {
        if (status_.ok()) status_ = s;
        value_.clear();
      }
      resolved_ = true;
    }
    return value_;
  }
  Status status() const override {
    return status_.ok() ? base_->status() : status_;
  }

 private:
  void Moved() { resolved_ = false; }

  Iterator* const base_;
  const ValueLog* const vlog_;
  const bool verify_;
  mutable bool resolved_ = false;
  mutable std::string value_;
  mutable Status status_;
};

}  // namespace

Iterator* NewValueResolvingIterator(Iterator* base, const ValueLog* vlog,
                                    bool verify_checksums) {
  return new ValueResolvingIterator(base, vlog, verify_checksums);
}

}  // namespace leveldb
