// The rest of YCSB 0.17's number generators, with Java's arithmetic (abs and
// signed remainder, int casts) so each draws from the same distribution as
// the Java class it is named after. Every generator takes the Random64 it
// draws from; none owns or seeds one.
#ifndef WORKLOADS_YCSB_GENERATORS_H_
#define WORKLOADS_YCSB_GENERATORS_H_

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ycsb/random.h"
#include "ycsb/zipfian.h"

namespace ycsb {

// UniformLongGenerator: lb..ub inclusive.
class UniformLongGenerator {
 public:
  UniformLongGenerator(int64_t lb, int64_t ub, Random64* rnd)
      : lb_(lb), interval_(ub - lb + 1), rnd_(rnd) {}
  int64_t Next() { return JavaAbs(rnd_->NextLong()) % interval_ + lb_; }

 private:
  int64_t lb_, interval_;
  Random64* rnd_;
};

// SequentialGenerator: countstart, countstart+1, ... wrapping at countend.
class SequentialGenerator {
 public:
  SequentialGenerator(int64_t countstart, int64_t countend)
      : countstart_(countstart), interval_(countend - countstart + 1) {}
  int64_t Next() { return countstart_ + (counter_++) % interval_; }

 private:
  int64_t countstart_, interval_;
  int64_t counter_ = 0;
};

// CounterGenerator: the load phase's key sequence.
class CounterGenerator {
 public:
  explicit CounterGenerator(int64_t start) : next_(start) {}
  int64_t Next() { return next_++; }
  int64_t Last() const { return next_ - 1; }

 private:
  int64_t next_;
};

// AcknowledgedCounterGenerator: hands out insert key numbers, but Last()
// reports only the highest number below which every key was acknowledged
// (inserted), so readers never pick a key that is not in the store yet.
// Single-threaded here: acknowledgements may still arrive out of order, as
// they would from a driver that pipelines inserts.
class AcknowledgedCounterGenerator {
 public:
  static constexpr int64_t kWindow = 1 << 20;  // pending acks, as Java's window

  explicit AcknowledgedCounterGenerator(int64_t start)
      : next_(start), limit_(start - 1), window_(kWindow, false) {}

  int64_t Next() { return next_++; }
  int64_t Last() const { return limit_; }

  // Throws std::runtime_error when more than kWindow inserts are pending,
  // which is Java's behaviour too ("Too many unacknowledged insertion keys").
  void Acknowledge(int64_t value) {
    size_t slot = static_cast<size_t>(value & (kWindow - 1));
    if (window_[slot]) throw std::runtime_error("Too many unacknowledged insertion keys.");
    window_[slot] = true;
    int64_t index = limit_ + 1;
    while (window_[static_cast<size_t>(index & (kWindow - 1))]) {
      window_[static_cast<size_t>(index & (kWindow - 1))] = false;
      index++;
    }
    limit_ = index - 1;
  }

 private:
  int64_t next_;
  int64_t limit_;
  std::vector<bool> window_;
};

// SkewedLatestGenerator: zipfian over the acknowledged keys, most recent
// first. Java builds its zipfian over basis.lastValue() items and redraws with
// the current lastValue() each time (zeta grows incrementally); the result is
// in [1, last], never above the acknowledged limit.
class SkewedLatestGenerator {
 public:
  SkewedLatestGenerator(const AcknowledgedCounterGenerator* basis, Random64* rnd)
      : basis_(basis), zipfian_(0, basis->Last() - 1, kZipfianConstant, rnd) {}
  int64_t Next() {
    int64_t max = basis_->Last();
    return max - zipfian_.Next(max);
  }

 private:
  const AcknowledgedCounterGenerator* basis_;
  ZipfianGenerator zipfian_;
};

// HotspotIntegerGenerator: hotopnfraction of the draws fall uniformly on the
// first hotsetfraction of lb..ub, the rest uniformly on the remainder.
class HotspotIntegerGenerator {
 public:
  HotspotIntegerGenerator(int64_t lb, int64_t ub, double hotsetfraction,
                          double hotopnfraction, Random64* rnd)
      : lb_(lb), hotopnfraction_(hotopnfraction), rnd_(rnd) {
    int64_t interval = ub - lb + 1;
    hot_interval_ = JavaDoubleToInt(static_cast<double>(interval) * hotsetfraction);
    cold_interval_ = interval - hot_interval_;
  }
  int64_t Next() {
    if (rnd_->NextDouble() < hotopnfraction_) {
      return lb_ + JavaAbs(rnd_->NextLong()) % hot_interval_;
    }
    return lb_ + hot_interval_ + JavaAbs(rnd_->NextLong()) % cold_interval_;
  }
  int64_t hot_interval() const { return hot_interval_; }
  int64_t cold_interval() const { return cold_interval_; }

 private:
  int64_t lb_;
  double hotopnfraction_;
  int64_t hot_interval_, cold_interval_;
  Random64* rnd_;
};

// ExponentialGenerator: exponential with rate gamma chosen so that
// `percentile` percent of the draws fall below `range`.
class ExponentialGenerator {
 public:
  ExponentialGenerator(double percentile, double range, Random64* rnd)
      : gamma_(-std::log(1.0 - percentile / 100.0) / range), rnd_(rnd) {}
  double Next() { return -std::log(rnd_->NextDouble()) / gamma_; }
  double gamma() const { return gamma_; }

 private:
  double gamma_;
  Random64* rnd_;
};

// DiscreteGenerator: picks a value with probability weight / sum(weights),
// walking the values in insertion order as Java does.
template <typename T>
class DiscreteGenerator {
 public:
  explicit DiscreteGenerator(Random64* rnd) : rnd_(rnd) {}
  void Add(double weight, T value) { values_.emplace_back(weight, std::move(value)); }
  bool empty() const { return values_.empty(); }
  const T& Next() {
    double sum = 0;
    for (const auto& p : values_) sum += p.first;
    double val = rnd_->NextDouble();
    for (const auto& p : values_) {
      double pw = p.first / sum;
      if (val < pw) return p.second;
      val -= pw;
    }
    // Java throws here; rounding can leave val a hair above the last weight.
    return values_.back().second;
  }

 private:
  Random64* rnd_;
  std::vector<std::pair<double, T>> values_;
};

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_GENERATORS_H_
