#!/usr/bin/env bash
# Container test (its own command: an image build is minutes cached and
# 20+ min cold on 2 cores, too slow for ./run-tests):
#   containers/test.sh [-- PYTEST-ARGS]
# Builds the image (containers/build.sh), then runs the project's test
# command, ./run-tests, inside it with `buildah run --isolation chroot`
# (podman's own `podman run` cannot set the rlimits it wants on machines
# like the development VM; chroot isolation needs none), and checks that a
# fingerprint taken inside records the image id. Arguments after -- go to
# pytest inside (e.g. -- -k pipeline for a subset).
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "== container test: $*" >&2; }
command -v buildah >/dev/null || { say "needs buildah (apt-get install buildah)"; exit 1; }
[[ ${1:-} == -- ]] && shift

t0=$SECONDS
image=$(containers/build.sh | tail -1)
say "image $image built in $((SECONDS - t0)) s"

ctr=$(buildah from --pull-never "$image")
trap 'buildah rm "$ctr" >/dev/null' EXIT
inside() { buildah run --isolation chroot "$ctr" -- "$@"; }

say "fingerprint inside"
got=$(inside .venv/bin/python -m hardware.fingerprint --out /tmp/fp.json \
  && inside .venv/bin/python -c 'import json; print(json.load(open("/tmp/fp.json"))["stable"]["container"]["image_id"])')
[[ $got == "${image#sha256:}" ]] || { say "FAIL: fingerprint image_id '$got', image '$image'"; exit 1; }

say "./run-tests inside"
t1=$SECONDS
inside ./run-tests "$@"
say "PASS: ./run-tests inside the image in $((SECONDS - t1)) s (total $((SECONDS - t0)) s)"
