#include "ycsb/core_workload.h"

#include <limits>

#include "ycsb/key_name.h"

namespace ycsb {
namespace {

// Sub-stream ids of the seed; fixed forever, or old seeds change meaning.
constexpr uint64_t kOpStream = 1, kKeyStream = 2, kScanStream = 3;

// One line naming where a property came from, the property and what was expected.
bool Fail(const Properties& p, const std::string& key, const std::string& what, std::string* err) {
  *err = p.Where(key) + ": " + key + ": " + what;
  return false;
}

}  // namespace

const char* OpTypeName(Op::Type type) {
  switch (type) {
    case Op::kRead: return "READ";
    case Op::kUpdate: return "UPDATE";
    case Op::kInsert: return "INSERT";
    case Op::kScan: return "SCAN";
    case Op::kReadModifyWrite: return "READMODIFYWRITE";
  }
  return "?";
}

CoreWorkload::CoreWorkload(const Properties&, uint64_t seed)
    : op_rnd_(StreamSeed(seed, kOpStream)),
      key_rnd_(StreamSeed(seed, kKeyStream)),
      scan_rnd_(StreamSeed(seed, kScanStream)),
      op_chooser_(&op_rnd_) {}

std::unique_ptr<CoreWorkload> CoreWorkload::Create(const Properties& p, uint64_t seed,
                                                   std::string* err) {
  std::unique_ptr<CoreWorkload> w(new CoreWorkload(p, seed));
  if (!w->Init(p, err)) return nullptr;
  return w;
}

bool CoreWorkload::Init(const Properties& p, std::string* err) {
  double insert_proportion = 0;
  return InitRecords(p, err) && InitOperations(p, &insert_proportion, err) &&
         InitRequestDistribution(p, insert_proportion, err) && InitScans(p, err);
}

// Fields, the record count and the range of keys the run inserts.
bool CoreWorkload::InitRecords(const Properties& p, std::string* err) {
  field_count_ = p.GetInt("fieldcount", 10);
  field_length_ = p.GetInt("fieldlength", 100);
  if (p.Get("fieldlengthdistribution", "constant") != "constant") {
    return Fail(p, "fieldlengthdistribution",
                "expected constant (the driver writes fixed-size values)", err);
  }
  record_count_ = p.GetInt("recordcount", 0);
  // Java: recordcount=0 means Integer.MAX_VALUE.
  if (record_count_ == 0) record_count_ = std::numeric_limits<int32_t>::max();
  if (!p.Has("operationcount")) return Fail(p, "operationcount", "expected a value (required)", err);
  operation_count_ = p.GetInt("operationcount", 0);
  insert_start_ = p.GetInt("insertstart", 0);
  insert_count_ = p.GetInt("insertcount", record_count_ - insert_start_);
  if (record_count_ < insert_start_ + insert_count_) {
    return Fail(p, "insertcount", "expected insertstart + insertcount <= recordcount (" +
                                      std::to_string(record_count_) + "), got " +
                                      std::to_string(insert_start_) + " + " +
                                      std::to_string(insert_count_), err);
  }
  if (insert_count_ < 1) return Fail(p, "insertcount", "expected at least one record", err);
  zero_padding_ = static_cast<int>(p.GetInt("zeropadding", 1));
  ordered_inserts_ = p.Get("insertorder", "hashed") != "hashed";
  key_sequence_ = CounterGenerator(insert_start_);
  insert_sequence_ = AcknowledgedCounterGenerator(record_count_);
  return true;
}

// The operation mix; *insert: its insert proportion (the zipfian key space grows with it).
bool CoreWorkload::InitOperations(const Properties& p, double* insert, std::string* err) {
  double read = p.GetDouble("readproportion", 0.95);
  double update = p.GetDouble("updateproportion", 0.05);
  *insert = p.GetDouble("insertproportion", 0.0);
  double scan = p.GetDouble("scanproportion", 0.0);
  double rmw = p.GetDouble("readmodifywriteproportion", 0.0);
  if (read > 0) op_chooser_.Add(read, Op::kRead);
  if (update > 0) op_chooser_.Add(update, Op::kUpdate);
  if (*insert > 0) op_chooser_.Add(*insert, Op::kInsert);
  if (scan > 0) op_chooser_.Add(scan, Op::kScan);
  if (rmw > 0) op_chooser_.Add(rmw, Op::kReadModifyWrite);
  if (op_chooser_.empty()) {
    return Fail(p, "readproportion", "expected at least one operation proportion > 0", err);
  }
  return true;
}

// The generator of the keys operations touch (requestdistribution).
bool CoreWorkload::InitRequestDistribution(const Properties& p, double insert, std::string* err) {
  request_distribution_ = p.Get("requestdistribution", "uniform");
  const std::string& d = request_distribution_;
  int64_t lo = insert_start_, hi = insert_start_ + insert_count_ - 1;
  if (d == "uniform") {
    uniform_.reset(new UniformLongGenerator(lo, hi, &key_rnd_));
  } else if (d == "exponential") {
    double percentile = p.GetDouble("exponential.percentile", 95);
    double frac = p.GetDouble("exponential.frac", 0.8571428571);
    if (percentile >= 100) {
      return Fail(p, "exponential.percentile", "expected a number in (0, 100)", err);
    }
    exponential_.reset(new ExponentialGenerator(
        percentile, static_cast<double>(record_count_) * frac, &key_rnd_));
  } else if (d == "sequential") {
    sequential_.reset(new SequentialGenerator(lo, hi));
  } else if (d == "zipfian") {
    // Java sizes the scrambled key space for the inserts it expects (twice
    // the mean, its "fudge factor") so the hot set stays put as keys arrive;
    // draws above the acknowledged limit are redrawn.
    int64_t expected_new = static_cast<int64_t>(
        static_cast<double>(operation_count_) * insert * 2.0);
    zipfian_.reset(new ScrambledZipfianGenerator(
        lo, insert_start_ + insert_count_ + expected_new,
        p.GetDouble("zipfianconstant", kZipfianConstant), &key_rnd_));
  } else if (d == "latest") {
    if (record_count_ < 2) return Fail(p, "recordcount", "expected >= 2 for requestdistribution=latest", err);
    latest_.reset(new SkewedLatestGenerator(&insert_sequence_, &key_rnd_));
  } else if (d == "hotspot") {
    double hotset = p.GetDouble("hotspotdatafraction", 0.2);
    double hotopn = p.GetDouble("hotspotopnfraction", 0.8);
    hotspot_.reset(new HotspotIntegerGenerator(lo, hi, hotset, hotopn, &key_rnd_));
    // Java divides by zero on an empty set that still gets draws.
    if (hotopn > 0 && hotspot_->hot_interval() < 1) {
      return Fail(p, "hotspotdatafraction", "expected a hot set of at least one record", err);
    }
    if (hotopn < 1 && hotspot_->cold_interval() < 1) {
      return Fail(p, "hotspotdatafraction", "expected a cold set of at least one record", err);
    }
  }
  return true;
}

// Scan lengths.
bool CoreWorkload::InitScans(const Properties& p, std::string* err) {
  int64_t minscan = p.GetInt("minscanlength", 1);
  int64_t maxscan = p.GetInt("maxscanlength", 1000);
  if (minscan > maxscan) {
    return Fail(p, "minscanlength", "expected <= maxscanlength (" + std::to_string(maxscan) + ")", err);
  }
  if (p.Get("scanlengthdistribution", "uniform") == "uniform") {
    scan_uniform_.reset(new UniformLongGenerator(minscan, maxscan, &scan_rnd_));
  } else {
    scan_zipfian_.reset(new ZipfianGenerator(minscan, maxscan, kZipfianConstant, &scan_rnd_));
  }
  return true;
}

std::string CoreWorkload::KeyName(int64_t keynum) const {
  return BuildKeyName(keynum, zero_padding_, ordered_inserts_);
}

int64_t CoreWorkload::NextKeynum() {
  int64_t keynum;
  if (exponential_) {
    // Java: lastValue() - (int) draw, redrawn while negative: recent keys hot.
    do {
      keynum = insert_sequence_.Last() - JavaDoubleToInt(exponential_->Next());
    } while (keynum < 0);
    return keynum;
  }
  do {
    if (uniform_) keynum = uniform_->Next();
    else if (zipfian_) keynum = zipfian_->Next();
    else if (latest_) keynum = latest_->Next();
    else if (hotspot_) keynum = hotspot_->Next();
    else keynum = sequential_->Next();
  } while (keynum > insert_sequence_.Last());
  return keynum;
}

Op CoreWorkload::NextLoad() {
  Op op;
  op.type = Op::kInsert;
  int64_t keynum = key_sequence_.Next();
  op.keynum = static_cast<uint64_t>(keynum);
  op.key = KeyName(keynum);
  return op;
}

Op CoreWorkload::NextTransaction() {
  Op op;
  op.type = op_chooser_.Next();
  int64_t keynum;
  if (op.type == Op::kInsert) {
    keynum = insert_sequence_.Next();
    if (auto_ack_) insert_sequence_.Acknowledge(keynum);
  } else {
    keynum = NextKeynum();
  }
  op.keynum = static_cast<uint64_t>(keynum);
  op.key = KeyName(keynum);
  if (op.type == Op::kScan) {
    op.scan_len = static_cast<int>(scan_uniform_ ? scan_uniform_->Next() : scan_zipfian_->Next());
  }
  return op;
}

}  // namespace ycsb
