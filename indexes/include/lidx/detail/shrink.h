// ShrinkToFit: capacity == size, also without C++ exceptions. libstdc++'s
// shrink_to_fit() does nothing when compiled with -fno-exceptions (its
// reallocation sits in a try block), and LevelDB builds with that flag: in
// the engine every index kept its vectors' growth slack, which
// MemoryBytes() (capacity-based) reported and PLEX's self-tuning, which
// compares tree sizes, misjudged (a 16-bin tree of 52 KB per table instead
// of one 1,024-bin node: 27 KB). Copying into an exact-size container works
// under both flags.
#ifndef LIDX_DETAIL_SHRINK_H_
#define LIDX_DETAIL_SHRINK_H_

#include <iterator>

namespace lidx {
namespace detail {

// C: std::vector or std::basic_string.
template <typename C>
void ShrinkToFit(C* c) {
  if (c->capacity() == c->size()) return;
  C(std::make_move_iterator(c->begin()), std::make_move_iterator(c->end()),
    c->get_allocator())
      .swap(*c);
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_SHRINK_H_
