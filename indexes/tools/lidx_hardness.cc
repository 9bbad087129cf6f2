// lidx_hardness: a key set's learned-index hardness, the number of segments
// of the optimal error-bounded PLA (the PGM-index's leaf level, lidx/pgm.h)
// at each epsilon, as JSON on stdout. The GRE benchmark (Wongkham et al.,
// "Are Updatable Learned Indexes Ready?", VLDB 2022) measures a set's local
// and global hardness the same way; workloads/hardness.py compares the two.
//   lidx_hardness --in keys_uint64 --eps 4,32,256
//   lidx_hardness --in keys_uint64 --eps 4 --every 40   (every 40th key, SOSD's downsample)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "lidx/pgm.h"

namespace {

bool ReadSosd(const std::string& path, std::vector<uint64_t>* keys, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  uint64_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n)) {
    *err = path + ": no SOSD header (a uint64 key count expected)";
    return false;
  }
  keys->resize(n);
  if (!in.read(reinterpret_cast<char*>(keys->data()), static_cast<std::streamsize>(n * sizeof(uint64_t)))) {
    *err = path + ": " + std::to_string(n) + " uint64 keys expected after the header";
    return false;
  }
  return true;
}

size_t Segments(const std::vector<uint64_t>& keys, uint64_t eps) {
  lidx::detail::OptimalPlaFitter<uint64_t> fit(eps);
  return lidx::detail::FitLines(keys.data(), keys.size(), fit).size();
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, eps_list;
  uint64_t every = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--in") path = argv[i + 1];
    else if (flag == "--eps") eps_list = argv[i + 1];
    else if (flag == "--every") every = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "error: --%s: unknown option (expected --in, --eps, --every)\n", flag.c_str());
      return 2;
    }
  }
  if (path.empty() || eps_list.empty() || every == 0) {
    std::fprintf(stderr, "error: usage: lidx_hardness --in FILE --eps E1,E2 [--every K >= 1]\n");
    return 2;
  }
  std::vector<uint64_t> keys;
  std::string err;
  if (!ReadSosd(path, &keys, &err)) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  if (every > 1) {
    std::vector<uint64_t> kept;
    for (size_t i = 0; i < keys.size(); i += every) kept.push_back(keys[i]);
    keys.swap(kept);
  }
  std::printf("{\"keys\": %zu, \"segments\": {", keys.size());
  size_t start = 0;
  bool first = true;
  while (start <= eps_list.size()) {
    size_t end = eps_list.find(',', start);
    if (end == std::string::npos) end = eps_list.size();
    const uint64_t eps = std::strtoull(eps_list.substr(start, end - start).c_str(), nullptr, 10);
    if (eps == 0) {
      std::fprintf(stderr, "error: --eps: positive integers expected, got %s\n", eps_list.c_str());
      return 2;
    }
    std::printf("%s\"%llu\": %zu", first ? "" : ", ", static_cast<unsigned long long>(eps), Segments(keys, eps));
    first = false;
    start = end + 1;
  }
  std::printf("}}\n");
  return 0;
}
