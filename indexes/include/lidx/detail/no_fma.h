// A barrier against floating-point contraction, shared by the indexes whose
// build and search must round identically (linear_segments.h, lits.h).
#ifndef LIDX_DETAIL_NO_FMA_H_
#define LIDX_DETAIL_NO_FMA_H_

namespace lidx {
namespace detail {

// Keeps `v` in a register as a finished value so that an expression using it
// (base + slope * dx) is never contracted into an FMA in one place only.
inline double Materialize(double v) {
#if defined(__GNUC__) && defined(__x86_64__)
  __asm__("" : "+x"(v));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(v));
#else
  volatile double t = v;
  v = t;
#endif
  return v;
}

}  // namespace detail
}  // namespace lidx

#endif  // LIDX_DETAIL_NO_FMA_H_
