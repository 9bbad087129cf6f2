#include "layers/hooks/lookup_trace.h"

#include <chrono>
#include <cstring>
#include <thread>

namespace leveldb {
namespace trace {

std::atomic<bool> g_tracing{false};

namespace {
thread_local LookupTrace tls_trace = {};
thread_local LookupContext tls_context;
thread_local BuildCounters tls_build;
}  // namespace

const char* StepName(int step) {
  static const char* const kNames[kNumSteps] = {
      "find_files",  "find_table", "load_index", "index_search", "load_data",
      "search_data", "read_value", "seek",       "scan"};
  return step >= 0 && step < kNumSteps ? kNames[step] : "?";
}

LookupTrace& ThisThread() { return tls_trace; }
void ResetThisThread() { std::memset(&tls_trace, 0, sizeof(tls_trace)); }
LookupContext& Context() { return tls_context; }
BuildCounters& ThisThreadBuild() { return tls_build; }
void SetTracing(bool on) { g_tracing.store(on, std::memory_order_relaxed); }

double NanosPerTick() {
  static const double kNanosPerTick = [] {
    auto c0 = std::chrono::steady_clock::now();
    uint64_t t0 = Ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto c1 = std::chrono::steady_clock::now();
    uint64_t t1 = Ticks();
    double ns = std::chrono::duration<double, std::nano>(c1 - c0).count();
    return t1 > t0 ? ns / (t1 - t0) : 1.0;
  }();
  return kNanosPerTick;
}

}  // namespace trace
}  // namespace leveldb
