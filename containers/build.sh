#!/usr/bin/env bash
# Builds the pipeline's container image (containers/Containerfile) with
# podman, buildah or docker, whichever this machine has (in that order).
#   containers/build.sh [--tag NAME] [--base IMAGE] [--no-cache]
# Default tag: localhost/lsmrepro:<git commit>, also tagged :latest.
#
# The base is Debian 12. When no registry answers, the base image is made
# here from Debian's own packages: debootstrap (minbase) from the Debian
# mirror this machine's apt is configured with, imported as
# localhost/debian:bookworm-updates (following bookworm-updates and
# bookworm-security, as the official image does). The script says which base it used.
# Prints the image id last; the build log is containers/build.log.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

tag="" base="" nocache=()
while (($#)); do
  case $1 in
    --tag) tag=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --no-cache) nocache=(--no-cache); shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "containers/build.sh: $*" >&2; }

if command -v podman >/dev/null; then tool=podman
elif command -v buildah >/dev/null; then tool=buildah
elif command -v docker >/dev/null && docker info >/dev/null 2>&1; then tool=docker
else
  say "needs podman, buildah or docker (with a running daemon); Debian: apt-get install podman buildah"
  exit 1
fi
say "using $tool"

commit=$(git rev-parse --short=12 HEAD)
[[ -z $tag ]] && tag=localhost/lsmrepro:$commit

image_exists() {
  case $tool in
    docker) docker image inspect "$1" >/dev/null 2>&1 ;;
    podman) podman image exists "$1" ;;
    buildah) buildah inspect --type image "$1" >/dev/null 2>&1 ;;
  esac
}

# The Debian mirror apt uses here for bookworm's main component.
debian_mirror() {
  [[ -n ${DEBIAN_MIRROR:-} ]] && { echo "$DEBIAN_MIRROR"; return; }
  command -v apt-get >/dev/null || return 1
  apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' \
    | awk '$2 == "bookworm" && $3 == "main" {print $1; exit}'
}

security_mirror() {
  [[ -n ${DEBIAN_SECURITY_MIRROR:-} ]] && { echo "$DEBIAN_SECURITY_MIRROR"; return; }
  command -v apt-get >/dev/null || return 1
  apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' \
    | awk '$2 == "bookworm-security" && $3 == "main" {print $1; exit}'
}

# debootstrap's sources name the release only; the official image also
# follows bookworm-updates and bookworm-security, and so does ours (the
# Containerfile upgrades from them).
base_sources() {
  local mirror=$1 security=$2
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$mirror"
  if [[ -n $security ]]; then
    printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$security"
  else
    say "no bookworm-security mirror in the apt sources (set DEBIAN_SECURITY_MIRROR): the base follows bookworm and bookworm-updates only"
  fi
}

debootstrap_base() {
  local img=localhost/debian:bookworm-updates mirror root
  if image_exists "$img"; then say "base: $img (made earlier by debootstrap)"; base=$img; return; fi
  command -v debootstrap >/dev/null || { say "no registry and no debootstrap: apt-get install debootstrap"; exit 1; }
  mirror=$(debian_mirror) || true
  [[ -n $mirror ]] || { say "no Debian mirror for bookworm in the apt sources; set DEBIAN_MIRROR"; exit 1; }
  say "no registry reachable: building the Debian 12 base with debootstrap from $mirror"
  root=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$root" "$mirror" > containers/debootstrap.log 2>&1 \
    || { tail -20 containers/debootstrap.log >&2; rm -rf "$root"; exit 1; }
  rm -f "$root/etc/apt/sources.list"
  base_sources "$mirror" "$(security_mirror || true)" > "$root/etc/apt/sources.list.d/debian.sources"
  case $tool in
    docker) tar -C "$root" -c . | docker import - "$img" >/dev/null ;;
    *) tar -C "$root" -c . | podman import - "$img" >/dev/null 2>&1 \
         || { ctr=$(buildah from scratch); buildah copy "$ctr" "$root" / >/dev/null
              buildah commit --rm "$ctr" "$img" >/dev/null; } ;;
  esac
  rm -rf "$root"
  base=$img
}

if [[ -z $base ]]; then
  official=docker.io/library/debian:bookworm
  if image_exists "$official"; then base=$official
  elif timeout 60 "$tool" pull -q "$official" >/dev/null 2>&1; then
    base=$official; say "base: $official from the registry"
  else
    debootstrap_base
  fi
fi

# The context: the checkout's files (tracked and untracked, not ignored),
# the pinned source tarballs already fetched (the drop folder; the build
# verifies their checksums), and the image's identity.
ctx=$(mktemp -d)
git ls-files -z --cached --others --exclude-standard | tar --null -T - -c | tar -C "$ctx" -x
mkdir -p "$ctx/sources"
# Site certificate authorities (e.g. a TLS-inspecting proxy's), passed as a
# build secret: trusted during set-up, never stored in the image.
site_ca=$(mktemp)
trap 'rm -rf "$ctx" "$site_ca"' EXIT
cat /usr/local/share/ca-certificates/*.crt > "$site_ca" 2>/dev/null || true
for f in build/sources/*.tar.* sources/*; do [[ -f $f ]] && cp -p "$f" "$ctx/sources/"; done
tree=$(cd "$ctx" && find . -type f ! -path './sources/*' -print0 | LC_ALL=C sort -z \
       | xargs -0 sha256sum | sha256sum | cut -c1-16)
dirty=false; [[ -n $(git status --porcelain) ]] && dirty=true
base_id=$("$tool" image inspect --format '{{.Id}}' "$base" 2>/dev/null || echo unknown)
# No time stamps: equal content gives an equal file, so cached layers stay valid.
printf '{"name": "%s", "git_commit": "%s", "git_dirty": %s, "context_sha256": "%s", "base": "%s", "base_id": "%s"}\n' \
  "$tag" "$(git rev-parse HEAD)" "$dirty" "$tree" "$base" "$base_id" > "$ctx/.image.json"

say "building $tag from $base (log: containers/build.log)"
start=$(date +%s)
case $tool in
  docker) DOCKER_BUILDKIT=1 docker build "${nocache[@]}" --network=host --build-arg BASE="$base" --secret id=site-ca,src="$site_ca" \
            -f containers/Containerfile -t "$tag" "$ctx" ;;
  podman) podman build "${nocache[@]}" --isolation=chroot --network=host --build-arg BASE="$base" --secret id=site-ca,src="$site_ca" \
            -f containers/Containerfile -t "$tag" "$ctx" ;;
  buildah) buildah build "${nocache[@]}" --isolation=chroot --network=host --build-arg BASE="$base" --secret id=site-ca,src="$site_ca" \
            -f containers/Containerfile -t "$tag" "$ctx" ;;
esac > containers/build.log 2>&1 || { tail -40 containers/build.log >&2; say "build failed; see containers/build.log"; exit 1; }
latest=${tag%:*}:latest
[[ $latest != "$tag" ]] && "$tool" tag "$tag" "$latest"
id=$("$tool" image inspect --format '{{.Id}}' "$tag")
size=$("$tool" image inspect --format '{{.Size}}' "$tag")
say "built $tag in $(( $(date +%s) - start )) s, $((size / 1000000)) MB, id $id"
echo "$id"
