// SOSD's binary key-file format: an 8-byte little-endian count, then `count`
// packed little-endian keys, uint32 or uint64 as the file name's suffix says
// (`books_200M_uint32`, `fb_200M_uint64`). Header-only; errors name the file
// and what was expected, they never throw past the caller.
//
//   std::vector<uint64_t> keys;
//   sosd::ReadInfo info;
//   std::string err;
//   if (!sosd::ReadKeys(path, /*require_sorted=*/true, &keys, &info, &err))
//     die(err);
#ifndef WORKLOADS_SOSD_SOSD_FORMAT_H_
#define WORKLOADS_SOSD_SOSD_FORMAT_H_

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <type_traits>
#include <vector>

namespace sosd {

// Width in bytes of a key as the file name's suffix says: 4 for "_uint32",
// 8 for "_uint64", 0 when the name carries neither.
inline int KeyWidthFromName(const std::string& path) {
  auto ends = [&](const char* suffix) {
    size_t n = std::strlen(suffix);
    return path.size() >= n && path.compare(path.size() - n, n, suffix) == 0;
  };
  if (ends("_uint32")) return 4;
  if (ends("_uint64")) return 8;
  return 0;
}

struct ReadInfo {
  uint64_t count = 0;
  uint64_t duplicates = 0;  // keys equal to their predecessor
  bool sorted = true;
};

namespace internal {

// Opens `path` and checks its count header against the file's size; on
// success *f is positioned at the first key and owned by the caller.
inline bool OpenChecked(const std::string& path, FILE** f, int* width, uint64_t* count,
                        std::string* err) {
  *width = KeyWidthFromName(path);
  if (*width == 0) {
    *err = path + ": file name must end in _uint32 or _uint64 (SOSD key width)";
    return false;
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = path + ": cannot stat: " + std::strerror(errno);
    return false;
  }
  *f = std::fopen(path.c_str(), "rb");
  if (*f == nullptr) {
    *err = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < 8 || std::fread(count, 8, 1, *f) != 1) {
    std::fclose(*f);
    *err = path + ": truncated: no 8-byte count header";
    return false;
  }
  uint64_t expected = 8 + *count * static_cast<uint64_t>(*width);
  if (*count > size / *width || expected != size) {
    std::fclose(*f);
    *err = path + ": header count " + std::to_string(*count) + " needs " +
           std::to_string(expected) + " bytes, file has " + std::to_string(size);
    return false;
  }
  return true;
}

}  // namespace internal

// Streams the keys of `path` to visit(index, key) in chunks, so files larger
// than memory (osm_cellids_800M is 6.4 GB) can be verified and downsampled.
// Fails with a message naming the file when the name has no width suffix,
// the size does not match the count header, or (require_sorted) a key is
// smaller than its predecessor. Duplicates are counted in *info, never
// dropped. Stops at the first problem.
template <typename Visit>
bool ForEachKey(const std::string& path, bool require_sorted, Visit visit, ReadInfo* info,
                std::string* err) {
  FILE* f = nullptr;
  int width = 0;
  uint64_t count = 0;
  if (!internal::OpenChecked(path, &f, &width, &count, err)) return false;
  ReadInfo local;
  local.count = count;
  const uint64_t kChunk = 1 << 20;
  std::vector<unsigned char> buf(kChunk * width);
  uint64_t prev = 0;
  for (uint64_t done = 0; done < count;) {
    uint64_t n = count - done < kChunk ? count - done : kChunk;
    if (std::fread(buf.data(), width, n, f) != n) {
      std::fclose(f);
      *err = path + ": short read at key " + std::to_string(done);
      return false;
    }
    for (uint64_t j = 0; j < n; j++) {
      uint64_t k = 0;
      if (width == 8) {
        std::memcpy(&k, &buf[j * 8], 8);
      } else {
        uint32_t k32;
        std::memcpy(&k32, &buf[j * 4], 4);
        k = k32;
      }
      uint64_t i = done + j;
      if (i > 0 && k < prev) {
        local.sorted = false;
        if (require_sorted) {
          std::fclose(f);
          *err = path + ": key " + std::to_string(i) + " (" + std::to_string(k) +
                 ") is smaller than key " + std::to_string(i - 1) + "; sorted keys expected";
          return false;
        }
      } else if (i > 0 && k == prev) {
        local.duplicates++;
      }
      prev = k;
      visit(i, k);
    }
    done += n;
  }
  std::fclose(f);
  if (info != nullptr) *info = local;
  return true;
}

// The count header of `path`, checked against the file size.
inline bool ReadCount(const std::string& path, uint64_t* count, std::string* err) {
  FILE* f = nullptr;
  int width = 0;
  if (!internal::OpenChecked(path, &f, &width, count, err)) return false;
  std::fclose(f);
  return true;
}

// Reads every key of `path` into *keys (widened to uint64_t), with the
// checks of ForEachKey.
inline bool ReadKeys(const std::string& path, bool require_sorted,
                     std::vector<uint64_t>* keys, ReadInfo* info,
                     std::string* err) {
  uint64_t count = 0;
  if (!ReadCount(path, &count, err)) return false;
  keys->resize(count);
  uint64_t* out = keys->data();
  return ForEachKey(path, require_sorted, [out](uint64_t i, uint64_t k) { out[i] = k; }, info,
                    err);
}

// Writes keys in SOSD format with the width the name's suffix says, through
// a temporary file renamed into place, so a killed writer never leaves a
// file that looks complete.
inline bool WriteKeys(const std::string& path, const std::vector<uint64_t>& keys,
                      std::string* err) {
  int width = KeyWidthFromName(path);
  if (width == 0) {
    *err = path + ": file name must end in _uint32 or _uint64 (SOSD key width)";
    return false;
  }
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    *err = tmp + ": cannot create: " + std::strerror(errno);
    return false;
  }
  uint64_t count = keys.size();
  bool ok = std::fwrite(&count, 8, 1, f) == 1;
  if (width == 8) {
    ok = ok && std::fwrite(keys.data(), 8, count, f) == count;
  } else {
    std::vector<uint32_t> narrow(count);
    for (uint64_t i = 0; i < count; i++) {
      if (keys[i] > UINT32_MAX) {
        std::fclose(f);
        std::remove(tmp.c_str());
        *err = path + ": key " + std::to_string(i) + " does not fit uint32";
        return false;
      }
      narrow[i] = static_cast<uint32_t>(keys[i]);
    }
    ok = ok && std::fwrite(narrow.data(), 4, count, f) == count;
  }
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    *err = path + ": write failed: " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace sosd

#endif  // WORKLOADS_SOSD_SOSD_FORMAT_H_
