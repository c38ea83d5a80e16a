# Sourced by ./sling and ./sling-test: installs what a fresh Debian 12 lacks, then builds.
# Packages come from Debian only; nothing is vendored or downloaded from elsewhere.

SLING_PACKAGES=(g++ cmake ninja-build libboost-graph-dev libtbb-dev libcereal-dev libcli11-dev
                libgtest-dev libbenchmark-dev libboost-mpi-dev openmpi-bin pkgconf libcpp-httplib-dev nlohmann-json3-dev
                chromium chromium-driver firefox-esr python3 python3-selenium librsvg2-bin
                pybind11-dev python3-dev python3-numpy python3-matplotlib ccache)

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
  # ccache keeps every compiled object between builds (and between fresh clones of the same tree
  # on one machine), so a rebuild of unchanged sources is a cache hit instead of a compile.
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    sling_ccache_setup
  fi
  if [ ! -f "$root/$dir/build.ninja" ]; then
    mkdir -p "$root/$dir"
    if ! cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "${launcher[@]}" \
          "${cmake_args[@]}" \
          >"$log" 2>&1; then
      cat "$log" >&2
      echo "sling: configuring $dir failed (log above)" >&2
      exit 1
    fi
  fi
  # ninja re-runs CMake's glob check (CONFIGURE_DEPENDS) on every call, so it never says "no
  # work to do"; its status lines tell: only that check means nothing is rebuilt, and we stay silent.
  # Otherwise the "[n/N] file" lines become one progress line (redrawn on a terminal, every tenth
  # of the way in a log), and the whole ninja output is kept in the log.
  # pipefail for this function alone (`local -`): a shell that sources this file without it would
  # otherwise take the progress reader's status for ninja's and miss a failed build.
  local -
  set -o pipefail
  local status=0
  NINJA_STATUS="[%f/%t] " ninja -C "$root/$dir" -j "$(nproc)" "${targets[@]}" 2>&1 |
    sling_build_progress "$dir" "$type" >"$log" || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "sling: build failed (log above)" >&2
    exit 1
  fi
}

# One cache for every build directory and clone: objects are keyed by their preprocessed text and
# flags, with paths taken relative to the source root (base_dir), so a fresh clone in another folder
# hits the objects of an earlier one.  Sized for the Release, sanitizer and fuzz builds together.
sling_ccache_setup() {
  export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache}"
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-12G}"
}

# Reads ninja's output on stdin, copies it to stdout (the log) and shows progress on stderr.
sling_build_progress() {
  local dir="$1" type="$2" line started=0 shown_tenth=-1 tty=0 done total
  [ -t 2 ] && tty=1
  while IFS= read -r line; do
    printf '%s\n' "$line"
    case "$line" in
      "["*"/"*"] "*)
        case "$line" in *"Re-checking globbed directories"*) continue ;; esac
        done="${line#[}"; done="${done%%/*}"
        total="${line#*/}"; total="${total%%]*}"
        if [ "$started" -eq 0 ]; then
          started=1
          if [ "$total" -gt 30 ]; then
            echo "sling: building $dir ($type): $total steps, several minutes on 2 cores" >&2
          else
            echo "sling: building $dir ($type): $total steps" >&2
          fi
        fi
        if [ "$tty" -eq 1 ]; then
          local what="${line#*] }"
          what="${what##*/}"
          printf '\r\033[K  [%s/%s] %.60s' "$done" "$total" "$what" >&2
        elif [ "$total" -gt 0 ] && [ $((done * 10 / total)) -gt "$shown_tenth" ]; then
          shown_tenth=$((done * 10 / total))
          echo "  [$done/$total] $((done * 100 / total))%" >&2
        fi
        ;;
    esac
  done
  if [ "$started" -eq 1 ] && [ "$tty" -eq 1 ]; then printf '\r\033[K' >&2; fi
  if [ "$started" -eq 1 ]; then echo "sling: build of $dir done" >&2; fi
  return 0
}
