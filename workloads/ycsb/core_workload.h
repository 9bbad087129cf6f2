// YCSB 0.17's CoreWorkload as a deterministic op stream.
//
// The same properties and seed give the same load order and the same
// transactions on every engine and run: each generator draws from its own
// Random64 sub-stream of the seed. Inserts are counted by an acknowledged
// counter; by default an insert is acknowledged as soon as it is handed out,
// which is exactly what a single-threaded YCSB client does (doTransactionInsert
// acknowledges before the next op is chosen). A driver that completes inserts
// later can switch that off and call Acknowledge itself; reads, updates and
// scans then never name a key that is not acknowledged yet.
//
//   ycsb::Properties p;  ... p.LoadFile("workloads/ycsb/workloada", &err) ...
//   std::unique_ptr<ycsb::CoreWorkload> w = ycsb::CoreWorkload::Create(p, 42, &err);
//   for (int64_t i = 0; i < w->insert_count(); i++) Load(w->NextLoad());
//   for (int64_t i = 0; i < w->operation_count(); i++) Run(w->NextTransaction());
#ifndef WORKLOADS_YCSB_CORE_WORKLOAD_H_
#define WORKLOADS_YCSB_CORE_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>

#include "ycsb/generators.h"
#include "ycsb/properties.h"
#include "ycsb/random.h"
#include "ycsb/zipfian.h"

namespace ycsb {

struct Op {
  enum Type { kRead, kUpdate, kInsert, kScan, kReadModifyWrite };
  Type type = kRead;
  uint64_t keynum = 0;  // the record number before hashing
  std::string key;      // "user..." as YCSB names it
  int scan_len = 0;     // records to scan (kScan only)
};

const char* OpTypeName(Op::Type type);

class CoreWorkload {
 public:
  // nullptr and *err set when the properties are inconsistent (for example
  // insertstart + insertcount > recordcount, or no operation has weight).
  static std::unique_ptr<CoreWorkload> Create(const Properties& p, uint64_t seed,
                                              std::string* err);

  // The next record of the load phase (insertstart, insertstart+1, ...).
  Op NextLoad();
  // The next operation of the transaction phase.
  Op NextTransaction();
  // Marks an insert of the transaction phase as done (only needed after
  // set_auto_acknowledge(false)).
  void Acknowledge(uint64_t keynum) { insert_sequence_.Acknowledge(static_cast<int64_t>(keynum)); }
  void set_auto_acknowledge(bool on) { auto_ack_ = on; }

  int64_t record_count() const { return record_count_; }
  int64_t operation_count() const { return operation_count_; }
  int64_t insert_start() const { return insert_start_; }
  int64_t insert_count() const { return insert_count_; }
  int64_t field_count() const { return field_count_; }
  int64_t field_length() const { return field_length_; }
  // Bytes of a record's value: every field at full length.
  int64_t value_size() const { return field_count_ * field_length_; }
  // Highest acknowledged insert key number.
  int64_t last_acknowledged() const { return insert_sequence_.Last(); }
  const std::string& request_distribution() const { return request_distribution_; }

 private:
  CoreWorkload(const Properties& p, uint64_t seed);
  bool Init(const Properties& p, std::string* err);
  bool InitRecords(const Properties& p, std::string* err);
  bool InitOperations(const Properties& p, double* insert, std::string* err);
  bool InitRequestDistribution(const Properties& p, double insert, std::string* err);
  bool InitScans(const Properties& p, std::string* err);
  int64_t NextKeynum();
  std::string KeyName(int64_t keynum) const;

  Random64 op_rnd_, key_rnd_, scan_rnd_;
  int64_t record_count_ = 0, operation_count_ = 0;
  int64_t insert_start_ = 0, insert_count_ = 0;
  int64_t field_count_ = 10, field_length_ = 100;
  int zero_padding_ = 1;
  bool ordered_inserts_ = false;
  bool auto_ack_ = true;
  std::string request_distribution_;

  CounterGenerator key_sequence_{0};
  AcknowledgedCounterGenerator insert_sequence_{0};
  DiscreteGenerator<Op::Type> op_chooser_;
  // Exactly one key chooser is set, by requestdistribution.
  std::unique_ptr<UniformLongGenerator> uniform_;
  std::unique_ptr<ScrambledZipfianGenerator> zipfian_;
  std::unique_ptr<SkewedLatestGenerator> latest_;
  std::unique_ptr<HotspotIntegerGenerator> hotspot_;
  std::unique_ptr<SequentialGenerator> sequential_;
  std::unique_ptr<ExponentialGenerator> exponential_;
  std::unique_ptr<UniformLongGenerator> scan_uniform_;
  std::unique_ptr<ZipfianGenerator> scan_zipfian_;
};

}  // namespace ycsb

#endif  // WORKLOADS_YCSB_CORE_WORKLOAD_H_
