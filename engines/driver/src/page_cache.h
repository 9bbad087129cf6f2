// Dropping a database's pages from the page cache, so that a run phase
// starts cold whatever the engine's open read (Bourbon's offline learning
// reads every table, WiscKey's open scans its value log).
#ifndef LSMBENCH_PAGE_CACHE_H_
#define LSMBENCH_PAGE_CACHE_H_

#include <cstdint>
#include <string>

namespace lsmbench {

// POSIX_FADV_DONTNEED on every regular file under `dir`, recursively.
// Clean pages go; pages a process still maps or dirty ones may stay (the
// kernel decides), which is why the caller writes the database back before.
// Sets *files to the number of files advised; false and *err (naming the
// file) when one cannot be opened or advised.
bool EvictPageCache(const std::string& dir, uint64_t* files, std::string* err);

}  // namespace lsmbench

#endif  // LSMBENCH_PAGE_CACHE_H_
