// Each block carries a 16-byte header just before the user pointer: the
// requested size (what we count) and the distance back to the malloc'ed base
// (so aligned and plain blocks free alike).
#include "alloc_counter.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

std::atomic<size_t> g_live{0};

struct Header {
  size_t size;
  size_t offset;
};

void* Allocate(size_t size, size_t align) {
  if (align < alignof(std::max_align_t)) align = alignof(std::max_align_t);
  size_t offset = align < sizeof(Header) ? sizeof(Header) : align;
  size_t total = offset + size;
  total = (total + align - 1) / align * align;  // aligned_alloc wants this
  void* base = std::aligned_alloc(align, total);
  if (!base) return nullptr;
  char* user = static_cast<char*>(base) + offset;
  Header* h = reinterpret_cast<Header*>(user) - 1;
  h->size = size;
  h->offset = offset;
  g_live.fetch_add(size, std::memory_order_relaxed);
  return user;
}

void Free(void* p) {
  if (!p) return;
  Header* h = static_cast<Header*>(p) - 1;
  g_live.fetch_sub(h->size, std::memory_order_relaxed);
  std::free(static_cast<char*>(p) - h->offset);
}

void* AllocateOrThrow(size_t size, size_t align) {
  void* p = Allocate(size, align);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

namespace lidx_test {
size_t LiveHeapBytes() { return g_live.load(std::memory_order_relaxed); }
}  // namespace lidx_test

void* operator new(size_t n) { return AllocateOrThrow(n, 0); }
void* operator new[](size_t n) { return AllocateOrThrow(n, 0); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n, 0);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n, 0);
}
void* operator new(size_t n, std::align_val_t a) {
  return AllocateOrThrow(n, static_cast<size_t>(a));
}
void* operator new[](size_t n, std::align_val_t a) {
  return AllocateOrThrow(n, static_cast<size_t>(a));
}
void* operator new(size_t n, std::align_val_t a,
                   const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<size_t>(a));
}
void* operator new[](size_t n, std::align_val_t a,
                     const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  Free(p);
}
void operator delete[](void* p, std::align_val_t,
                       const std::nothrow_t&) noexcept {
  Free(p);
}
