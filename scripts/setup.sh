#!/usr/bin/env bash
# All set-up, idempotent: Debian packages, then a Python virtual environment
# pinned by requirements.lock. A second run checks and changes nothing.
# It never calls sudo: without root and with packages missing, it prints the
# one command to run as root, and why, and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config patch git   # builds
  libgtest-dev libgmock-dev libbenchmark-dev                      # C++ tests, microbenchmarks
  clang libclang-rt-14-dev                                        # fuzz target: libFuzzer, ASan, UBSan
  nlohmann-json3-dev libcli11-dev                                 # driver: JSON, command line
  libsnappy-dev liblz4-dev libzstd-dev zlib1g-dev libbz2-dev      # engine compression libraries
  libgflags-dev                                                   # RocksDB's own tools
  fio dpkg-dev                                                    # calibration, apt-get source
  eatmydata                                                       # loads whose times nothing reads
  python3 python3-venv                                            # the pipeline's Python
  chromium                                                        # report test: headless screenshot
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing Debian packages: ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  else
    echo "setup: needs root once, to install the Debian packages the builds and benchmarks use:" >&2
    echo "  apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# The venv is rebuilt only when requirements.lock changes.
PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3)
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.lock | cut -d' ' -f1)
if [[ ! -x .venv/bin/python || ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  echo "setup: creating .venv from requirements.lock" >&2
  rm -rf .venv
  "$PY" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.lock >&2
  echo "$want" > "$stamp"
fi
