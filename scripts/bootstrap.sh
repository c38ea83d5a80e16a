# Sourced by ./sling and ./sling-test: installs what a fresh Debian 12 lacks, then builds.
# Packages come from Debian only; nothing is vendored or downloaded from elsewhere.

SLING_PACKAGES=(g++ cmake ninja-build libboost-graph-dev libtbb-dev libcereal-dev libcli11-dev
                libgtest-dev libbenchmark-dev libboost-mpi-dev openmpi-bin pkgconf libcpp-httplib-dev
                chromium chromium-driver python3 python3-selenium)

sling_install_missing() {
  local missing=() package
  for package in "${SLING_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local command="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "sling: missing packages: ${missing[*]}" >&2
    echo "sling: install them as root with:" >&2
    echo "  $command" >&2
    exit 1
  fi
  echo "sling: installing ${missing[*]}" >&2
  if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
          --no-install-recommends "${missing[@]}") >/tmp/sling-apt.log 2>&1; then
    cat /tmp/sling-apt.log >&2
    echo "sling: package installation failed (log above)" >&2
    exit 1
  fi
}

# sling_build DIR BUILD_TYPE [extra cmake args...] -- TARGETS...
# Configures once, then rebuilds only when sources changed; silent when there is nothing to do.
sling_build() {
  local dir="$1" type="$2"; shift 2
  local cmake_args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmake_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  targets=("$@")
  local root; root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local log="$root/$dir/.sling-build.log"
  if [ ! -f "$root/$dir/build.ninja" ]; then
    mkdir -p "$root/$dir"
    if ! cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "${cmake_args[@]}" \
          >"$log" 2>&1; then
      cat "$log" >&2
      echo "sling: configuring $dir failed (log above)" >&2
      exit 1
    fi
  fi
  if ninja -C "$root/$dir" -n "${targets[@]}" 2>/dev/null | grep -q "no work to do"; then
    return 0
  fi
  echo "sling: building $dir ($type)..." >&2
  if ! ninja -C "$root/$dir" -j "$(nproc)" "${targets[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "sling: build failed (log above)" >&2
    exit 1
  fi
}
