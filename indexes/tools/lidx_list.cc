// lidx_list: the registry (lidx/registry.h) as JSON, for the Python side
// (engines/difftest.py's `{table_index}` runs, paper/lsm_eval.py), which
// reads the committed copy indexes/registry.json; ctest
// `lidx_manifest_test` fails when that copy differs from this output.
//   lidx_list                 the JSON manifest on stdout
//   lidx_list --check FILE    exit 1 (with a diff hint) unless FILE equals it
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "lidx/registry.h"

namespace {

const char* KindName(lidx::BoundaryKind k) {
  switch (k) {
    case lidx::BoundaryKind::kNone: return "none";
    case lidx::BoundaryKind::kEntries: return "entries";
    case lidx::BoundaryKind::kError: return "error";
    case lidx::BoundaryKind::kLeaves: return "leaves";
    case lidx::BoundaryKind::kLeavesHeld: return "leaves-held";
  }
  return "?";
}

// Ids, labels and knob names are [a-z0-9_:;-] and upper-case letters: no
// character needs escaping in JSON.
std::string Manifest() {
  std::ostringstream o;
  o << "{\n  \"generated_by\": \"indexes/tools/lidx_list.cc from lidx/registry.h\",\n"
    << "  \"indexes\": [\n";
  const auto infos = lidx::Infos();
  for (size_t i = 0; i < infos.size(); i++) {
    const lidx::IndexInfo& x = infos[i];
    o << "    {\"id\": \"" << x.id << "\", \"label\": \"" << x.label << "\", \"family\": \""
      << x.family << "\", \"table\": " << (x.table ? "true" : "false")
      << ", \"exact\": " << (x.exact ? "true" : "false") << ", \"boundary\": \""
      << KindName(x.boundary) << "\", \"knob\": \"" << x.knob << "\", \"fixed\": \"" << x.fixed
      << "\", \"learned\": " << (x.learned ? "true" : "false") << ", \"variant_of\": \""
      << x.variant_of << "\"}" << (i + 1 < infos.size() ? "," : "") << "\n";
  }
  o << "  ]\n}\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string m = Manifest();
  if (argc == 3 && std::string(argv[1]) == "--check") {
    std::ifstream in(argv[2]);
    std::stringstream have;
    have << in.rdbuf();
    if (!in || have.str() != m) {
      std::fprintf(stderr,
                   "%s differs from lidx/registry.h: regenerate it with "
                   "`lidx_list > indexes/registry.json`\n",
                   argv[2]);
      return 1;
    }
    return 0;
  }
  if (argc != 1) {
    std::fprintf(stderr, "usage: lidx_list [--check FILE]\n");
    return 2;
  }
  std::cout << m;
  return 0;
}
