#include "gen/registry.h"

#include "gen/sosd_synth.h"
#include "gen/standins.h"
#include "gen/study_sets.h"

namespace gen {
namespace {

using Fn = std::function<Keys(uint64_t, uint64_t, int, Params*)>;

// Wraps a generator that cannot fail.
Generator Simple(const char* name, const char* stands_in_for, const char* summary, Fn fn) {
  return Generator{name, summary, stands_in_for,
                   [fn](uint64_t n, uint64_t seed, int width, Params* p, Keys* out, std::string* err) {
                     *out = fn(n, seed, width, p);
                     // Distinct-key generators stop short only when the key
                     // space cannot hold n keys; never hand back fewer silently.
                     if (out->size() != n) {
                       *err = "count: drew only " + std::to_string(out->size()) + " distinct keys of " +
                              std::to_string(n) + " (key space too small for these parameters)";
                       return false;
                     }
                     return true;
                   }};
}

std::vector<Generator> Build() {
  std::vector<Generator> g;
  // SOSD's own synthetic sets. uspr uses the seed (SOSD: 42); the others
  // are deterministic grids.
  g.push_back(Simple("sosd_uden", "", "SOSD uniform_dense: 42 .. n+41",
                     [](uint64_t n, uint64_t, int w, Params*) { return SosdUniformDense(n, w); }));
  g.push_back(Simple("sosd_uspr", "", "SOSD uniform_sparse: numpy RandomState(seed).randint, sorted",
                     [](uint64_t n, uint64_t seed, int w, Params*) {
                       return SosdUniformSparse(n, w, static_cast<uint32_t>(seed));
                     }));
  g.push_back(Simple("sosd_norm", "", "SOSD normal: scaled normal quantiles",
                     [](uint64_t n, uint64_t, int w, Params*) { return SosdNormal(n, w); }));
  g.push_back(Simple("sosd_logn", "", "SOSD lognormal: scaled lognormal quantiles (sigma 2, 1 for uint32)",
                     [](uint64_t n, uint64_t, int w, Params* p) {
                       return SosdLognormal(n, w, p->Real("sigma", w == 32 ? 1.0 : 2.0));
                     }));
  // Stand-ins for real files.
  g.push_back(Simple("fb_like", "fb_200M_uint64", "near-uniform ids, density steps, top outliers",
                     [](uint64_t n, uint64_t s, int, Params*) { return FbLike(n, s); }));
  g.push_back(Simple("osm_like", "osm_cellids_800M_uint64", "multi-scale clustered cell ids",
                     [](uint64_t n, uint64_t s, int, Params*) { return OsmLike(n, s); }));
  g.push_back(Simple("wiki_like", "wiki_ts_200M_uint64", "edit timestamps with duplicates",
                     [](uint64_t n, uint64_t s, int, Params*) { return WikiLike(n, s); }));
  g.push_back(Simple("books_like", "books_800M_uint64", "book popularity: smooth CDF, irregular locally",
                     [](uint64_t n, uint64_t s, int w, Params*) { return BooksLike(n, s, w); }));
  g.push_back(Simple("twitter_like", "Twitter User Data (SLR's TUD)", "sequential-era and snowflake user ids",
                     [](uint64_t n, uint64_t s, int, Params*) { return TwitterLike(n, s); }));
  g.push_back(Simple("amazon_reviews_like", "Amazon Reviews (Bourbon's AR)", "dense id blocks per category",
                     [](uint64_t n, uint64_t s, int, Params*) { return AmazonReviewsLike(n, s); }));
  g.push_back(Simple("nyc_osm_like", "New York OpenStreetMap (Bourbon's OSM)", "cell ids of one city",
                     [](uint64_t n, uint64_t s, int, Params*) { return NewYorkOsmLike(n, s); }));
  g.push_back(Simple("slr_osm_like", "the SLR paper's OSM (keys 0..4.2e7)", "dense runs with §3's mass per range",
                     [](uint64_t n, uint64_t s, int, Params*) { return SlrOsmLike(n, s); }));
  // Study-defined sets.
  g.push_back(Generator{"ycsbgen_uniform", "YCSB-Gen uniform distinct keys over space_factor x n", "",
                        [](uint64_t n, uint64_t s, int, Params* p, Keys* out, std::string* err) {
                          // `space` fixes the key space outright (the 8..24-byte
                          // keys need keys below 10^8); else space_factor x n.
                          uint64_t space = p->Count("space", 0);
                          if (space == 0) space = n * p->Count("space_factor", 10);
                          return YcsbGenUniform(n, s, space, out, err);
                        }});
  g.push_back(Generator{"ycsbgen_zipfian", "YCSB-Gen zipfian (theta) distinct keys over space_factor x n", "",
                        [](uint64_t n, uint64_t s, int, Params* p, Keys* out, std::string* err) {
                          return YcsbGenZipfian(n, s, n * p->Count("space_factor", 10),
                                                p->Real("theta", 0.99), out, err);
                        }});
  g.push_back(Simple("bourbon_linear", "", "consecutive keys",
                     [](uint64_t n, uint64_t, int, Params* p) {
                       return BourbonLinear(n, p->Count("start", 0));
                     }));
  g.push_back(Simple("bourbon_segmented", "", "runs of `run` consecutive keys, then a gap",
                     [](uint64_t n, uint64_t, int, Params* p) {
                       return BourbonSegmented(n, std::max<uint64_t>(1, p->Count("run", 100)),
                                               p->Count("gap", 1000), p->Count("start", 0));
                     }));
  g.push_back(Simple("bourbon_normal", "", "distinct N(0,1) samples scaled to integers",
                     [](uint64_t n, uint64_t s, int, Params* p) {
                       return BourbonNormal(n, s, p->Real("scale", 1e14));
                     }));
  g.push_back(Simple("doblix_logn", "", "floor(mult * lognormal(mu, sigma)), distinct",
                     [](uint64_t n, uint64_t s, int, Params* p) {
                       return DoblixLognormal(n, s, p->Real("mu", 0), p->Real("sigma", 2),
                                              p->Real("mult", 1e9));
                     }));
  g.push_back(Simple("doblix_uni", "", "uniform on [0, max], distinct",
                     [](uint64_t n, uint64_t s, int, Params* p) {
                       return DoblixUniform(n, s, p->Count("max", 10000000000000000ULL));
                     }));
  return g;
}

}  // namespace

const std::vector<Generator>& Generators() {
  static const std::vector<Generator> all = Build();
  return all;
}

const Generator* FindGenerator(const std::string& name) {
  for (const Generator& g : Generators()) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

}  // namespace gen
