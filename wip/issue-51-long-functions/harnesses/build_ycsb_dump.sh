#!/bin/bash
# build_ycsb_dump.sh REPO YCSB_STREAM_CC OUT
set -e
R=$1
g++ -O2 -std=c++17 -I$R/engines/driver/src -I$R -I$R/workloads "$(dirname "$0")"/ycsb_dump.cc "$2" \
  $R/engines/driver/src/ops.cc $R/workloads/ycsb/core_workload.cc $R/workloads/ycsb/properties.cc \
  $R/workloads/gen/lookups.cc -o "$3"
