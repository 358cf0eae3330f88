#!/usr/bin/env bash
# Installs Kernelwright's build dependencies from Debian's packages, builds, and
# then starts the workbench (--run), runs the test suite (--test), or only
# builds (no option). Idempotent: installed packages and an existing build are
# reused. Debian 12; run as root (or with sudo available).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build="${KW_BUILD_DIR:-$here/build}"
mode="${1:-build}"
case "$mode" in --run|--test|build) ;; *) echo "usage: $0 [--run|--test]" >&2; exit 2 ;; esac

packages=(
  g++ cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools libgl-dev
  libqscintilla2-qt6-dev libqcustomplot-dev
  libsqlite3-dev nlohmann-json3-dev libcurl4-openssl-dev libspdlog-dev libssl-dev
  bubblewrap xvfb xauth
  libopenblas-dev poppler-utils valgrind python3
  openssh-client openssh-server  # tst_ssh_executor starts its own sshd; the package also enables the system ssh service
  slurm-wlm munge  # tst_slurm_executor starts its own single-node cluster (munged, slurmctld, slurmd)
  dpkg-dev file  # tst_package: cpack's Debian dependencies come from dpkg-shlibdeps
  clang-format  # tst_format: the code's layout is clang-format's
  python3-torch  # tst_problem_import: problem import runs the reference (on the CPU here) to find its shapes
  python3-pyflakes  # py_lint: the judges' Python, most of which only a GPU host runs, checked for undefined names and the like
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "bootstrap: run as root, or: apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Optimized, without debug info: debug info doubles the compile time of the
# template-heavy sources, and neither the workbench nor the suite needs it
# (configure a build of your own with RelWithDebInfo for a debugger). Asserts
# stay on (no -DNDEBUG): the suite runs with them, and they cost next to nothing.
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2" >/dev/null
cmake --build "$build" --parallel "$(nproc)"

case "$mode" in
  --run)
    echo "bootstrap: starting the workbench (headless: xvfb-run -a $0 --run)"
    exec "$build/app/gui/kernelwright"
    ;;
  --test)
    cd "$build"
    exec ctest --output-on-failure --timeout 900
    ;;
esac
