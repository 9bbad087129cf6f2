#include "plugin/doblix/doblix_agent.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>

#include "plugin/doblix/doblix_segmenter.h"

namespace ROCKSDB_NAMESPACE {

namespace {
constexpr uint32_t kErrors[4] = {32, 64, 128, 256};
constexpr uint32_t kBlocks[4] = {4096, 8192, 16384, 32768};
const char* kActionNames[DoblixAgent::kActions] = {"error_up", "error_down", "block_up",
                                                   "block_down", "keep"};

uint64_t NowNanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

std::string StateName(int s) {
  DoblixKnobs k = DoblixAgent::KnobsOf(s);
  return std::string(k.pra ? "pra" : "pla") + (k.pra ? "" : "/E" + std::to_string(k.error)) +
         "/B" + std::to_string(k.max_block / 1024) + "K";
}
}  // namespace

DoblixAgent::DoblixAgent(double nu, uint64_t seed, uint32_t period)
    : nu_(nu), period_(period == 0 ? 1 : period), rng_(seed) {
  episode_start_ns_ = NowNanos();
}

// State = model index (PLA E=32..256, then PRA as the widest) * 4 + block index.
DoblixKnobs DoblixAgent::KnobsOf(int state) {
  DoblixKnobs k;
  int m = state / 4, b = state % 4;
  k.pra = m == 4;
  k.error = kErrors[m == 4 ? 3 : m];
  k.max_block = kBlocks[b];
  return k;
}

int DoblixAgent::Apply(int state, int action) {
  int m = state / 4, b = state % 4;
  switch (action) {
    case 0: m++; break;
    case 1: m--; break;
    case 2: b++; break;
    case 3: b--; break;
    default: break;
  }
  if (m < 0 || m > 4 || b < 0 || b > 3) return -1;
  return m * 4 + b;
}

DoblixKnobs DoblixAgent::Knobs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return KnobsOf(state_);
}

double DoblixAgent::Normalize(double v, double* mean, double* m2, double n) const {
  // Sigmoid of the value's z-score against everything seen so far.
  double sd = n > 1 ? std::sqrt(*m2 / (n - 1)) : 0;
  double z = sd > 0 ? (v - *mean) / sd : 0;
  return 1.0 / (1.0 + std::exp(-z));
}

void DoblixAgent::WarmStart(const DoblixTableReport& report) {
  // Estimated cost of each state on the sample: index bytes per entry, and
  // a latency proxy (block bytes read + binary search steps over blocks and
  // within the error range). Q(s, a) starts as the reward of the state a
  // leads to, so the first choices already lean the right way.
  const auto& c = report.sample_chunks;
  if (c.size() < 2) return;
  double lat[kStates], idx[kStates];
  for (int s = 0; s < kStates; s++) {
    DoblixKnobs k = KnobsOf(s);
    std::vector<DoblixCut> cuts =
        k.pra ? DoblixSegmenter::Pra(c, report.sample_bytes, k.max_block)
              : DoblixSegmenter::Pla(c, report.sample_bytes, k.error, k.max_block);
    double err = 0;
    for (const DoblixCut& cut : cuts) err += cut.error;
    err /= cuts.size();
    // The sample holds 1% of the keys, so a block of it stands for 100x the entries.
    double blocks = static_cast<double>(cuts.size());
    idx[s] = blocks * (k.pra ? 21.0 : 17.0) / c.size();
    lat[s] = k.max_block / 4096.0 + std::log2(blocks + 1) + std::log2(2 * err + 2);
  }
  double lm = 0, lv = 0, im = 0, iv = 0;
  for (int s = 0; s < kStates; s++) {
    lm += lat[s] / kStates;
    im += idx[s] / kStates;
  }
  for (int s = 0; s < kStates; s++) {
    lv += (lat[s] - lm) * (lat[s] - lm) / kStates;
    iv += (idx[s] - im) * (idx[s] - im) / kStates;
  }
  auto sig = [](double v, double m, double var) {
    double sd = std::sqrt(var);
    return 1.0 / (1.0 + std::exp(-(sd > 0 ? (v - m) / sd : 0)));
  };
  for (int s = 0; s < kStates; s++) {
    for (int a = 0; a < kActions; a++) {
      int t = Apply(s, a);
      if (t < 0) continue;
      q_[s][a] = -nu_ * sig(lat[t], lm, lv) - (1 - nu_) * sig(idx[t], im, iv);
    }
  }
}

void DoblixAgent::OnTableBuilt(const DoblixTableReport& report) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!warm_.load(std::memory_order_relaxed) && !report.sample_chunks.empty()) {
    WarmStart(report);
    warm_.store(true, std::memory_order_relaxed);
  }
  tables_++;
  episode_entries_ += report.entries;
  episode_index_bytes_ += report.index_bytes;
  total_entries_ += report.entries;
  if (report.flush) {
    episode_gap_sum_ += report.log2_key_gap;
    episode_flushes_++;
  }
  if (tables_ % period_ == 0) Step();
}

void DoblixAgent::Step() {
  const uint64_t now = NowNanos();
  const uint64_t reads = reads_.exchange(0), read_ns = read_nanos_.exchange(0);
  const uint64_t read_bytes = read_block_bytes_.exchange(0);
  const double seconds = (now - episode_start_ns_) / 1e9;
  episode_start_ns_ = now;
  // Without reads in the episode, latency carries no signal: the index size
  // alone is rewarded.
  const double latency = reads > 0 ? static_cast<double>(read_ns) / reads : lat_mean_;
  const double index_per_entry =
      episode_entries_ > 0 ? static_cast<double>(episode_index_bytes_) / episode_entries_ : 0;
  // Running mean/variance (Welford) of both, then sigmoid normalization.
  lat_n_ += 1;
  double d = latency - lat_mean_;
  lat_mean_ += d / lat_n_;
  lat_m2_ += d * (latency - lat_mean_);
  d = index_per_entry - idx_mean_;
  idx_mean_ += d / lat_n_;
  idx_m2_ += d * (index_per_entry - idx_mean_);
  const double reward = -nu_ * Normalize(latency, &lat_mean_, &lat_m2_, lat_n_) -
                        (1 - nu_) * Normalize(index_per_entry, &idx_mean_, &idx_m2_, lat_n_);

  // Algorithm 4, lines 8-9: the state reached is state_ (the knobs the
  // episode's tables were built with); credit the action that led here.
  double best = -1e300;
  for (int a = 0; a < kActions; a++) {
    if (Apply(state_, a) >= 0) best = std::max(best, q_[state_][a]);
  }
  if (!episodes_.empty()) {
    double& q = q_[last_state_][last_action_];
    q = (1 - kAlpha) * q + kAlpha * (reward + kGamma * best);
  }

  // A shift of the incoming keys' distribution (the mean key gap of the
  // flushed tables 4x off) restarts exploring.
  bool shift = false;
  if (episode_flushes_ > 0) {
    const double gap = episode_gap_sum_ / episode_flushes_;
    shift = have_gap_ && std::fabs(gap - last_gap_) > 2.0;
    if (shift) epsilon_ = kEpsilonStart;
    last_gap_ = gap;
    have_gap_ = true;
  }

  // Lines 10-15: epsilon-greedy among the available actions.
  std::vector<int> available;
  for (int a = 0; a < kActions; a++) {
    if (Apply(state_, a) >= 0) available.push_back(a);
  }
  int action = available.back();
  std::uniform_real_distribution<double> coin(0, 1);
  if (coin(rng_) < epsilon_) {
    action = available[std::uniform_int_distribution<size_t>(0, available.size() - 1)(rng_)];
  } else {
    for (int a : available) {
      if (q_[state_][a] > q_[state_][action]) action = a;
    }
  }
  char buf[640];
  snprintf(buf, sizeof(buf),
           "{\"episode\":%zu,\"tables\":%u,\"state\":\"%s\",\"action\":\"%s\","
           "\"next_state\":\"%s\",\"reward\":%.6f,\"epsilon\":%.4f,\"reads\":%llu,"
           "\"mean_read_latency_ns\":%.1f,\"block_bytes_per_read\":%.1f,\"throughput_ops\":%.1f,"
           "\"index_bytes_per_entry\":%.4f,\"estimated_index_bytes\":%.0f,"
           "\"distribution_shift\":%s}",
           episodes_.size(), tables_, StateName(state_).c_str(), kActionNames[action],
           StateName(Apply(state_, action)).c_str(), reward, epsilon_,
           static_cast<unsigned long long>(reads), latency,
           reads > 0 ? static_cast<double>(read_bytes) / reads : 0.0,
           seconds > 0 ? reads / seconds : 0.0, index_per_entry,
           index_per_entry * static_cast<double>(total_entries_), shift ? "true" : "false");
  episodes_.emplace_back(buf);
  last_state_ = state_;
  last_action_ = action;
  state_ = Apply(state_, action);
  epsilon_ = std::max(kEpsilonMin, epsilon_ * kEpsilonDecay);
  episode_entries_ = episode_index_bytes_ = 0;
  episode_gap_sum_ = 0;
  episode_flushes_ = 0;
}

std::string DoblixAgent::EpisodesJson() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out = "[";
  for (size_t i = 0; i < episodes_.size(); i++) out += (i ? "," : "") + episodes_[i];
  return out + "]";
}

}  // namespace ROCKSDB_NAMESPACE
