// Stand-ins for the real datasets, which these machines cannot download.
// Each mimics the shape that matters to a learned index (how the CDF bends,
// where keys cluster, whether there are duplicates), nothing more; every
// manifest, table and legend built from one says "stand-in". All return
// sorted keys, deterministic in (n, seed).
#ifndef WORKLOADS_GEN_STANDINS_H_
#define WORKLOADS_GEN_STANDINS_H_

#include <cstdint>

#include "gen/keyset.h"

namespace gen {

// fb_200M: user IDs whose gaps are heavy-tailed (hard for a learned index at
// every scale, as the real set) and a handful of huge outliers at the top
// (SOSD's fb has those; they hurt top-level models).
Keys FbLike(uint64_t n, uint64_t seed);
// osm_cellids_800M: S2 cell ids, clustered at several scales (continents,
// cities, streets) along the space-filling curve.
Keys OsmLike(uint64_t n, uint64_t seed);
// wiki_ts_200M: edit timestamps in seconds, rate growing over the years with
// a daily cycle, and bursts that repeat a second: duplicates are kept.
// The span scales with n so the duplicate share matches the real set.
Keys WikiLike(uint64_t n, uint64_t seed);
// books_200M/800M (AMZN): locally smooth (gaps of a small spread, near a
// random walk's hardness) and bent at large scale by a slow drift of the
// gaps' mean.
// Keys end near 2^62, or 2^31 for a 32-bit file (SOSD's books_200M_uint32).
Keys BooksLike(uint64_t n, uint64_t seed, int width);
// Twitter user ids (SLR's TUD): sequential-era ids below 2^32 and snowflake
// ids (millisecond timestamp << 22 | worker | sequence).
Keys TwitterLike(uint64_t n, uint64_t seed);
// Amazon reviews (Bourbon's AR): dense id blocks per category, with
// different densities and gaps between blocks.
Keys AmazonReviewsLike(uint64_t n, uint64_t seed);
// New York OpenStreetMap (Bourbon's OSM): cell ids of one city: one region,
// many street-level clusters.
Keys NewYorkOsmLike(uint64_t n, uint64_t seed);

// The OSM set of the SLR paper (seed 003), which is not SOSD's cell ids and
// has no published file: keys in 0..4.2e7 with the mass per range of its §3
// (5% below 3e7, 75% in 3.5e7..4.2e7, the rest between), in dense runs of
// 0.8 keys per unit (Table 1's slope) separated by jumps (Table 2).
Keys SlrOsmLike(uint64_t n, uint64_t seed);

}  // namespace gen

#endif  // WORKLOADS_GEN_STANDINS_H_
