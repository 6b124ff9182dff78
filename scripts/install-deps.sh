#!/usr/bin/env bash
# Installs what gpusim needs from Debian packages, and nothing when all is there.
# Idempotent and fast on a machine that has everything (one dpkg query).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev libboost-dev libboost-program-options-dev libboost-graph-dev nlohmann-json3-dev zlib1g-dev
  libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-dev
  python3-matplotlib python3-numpy python3-yaml
  slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The CUDA toolkit is not a Debian package here; its occupancy header is the test oracle.
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -f "$CUDA_HOME/include/cuda_occupancy.h" ]; then
  echo "install-deps: $CUDA_HOME/include/cuda_occupancy.h not found; install the CUDA toolkit at /usr/local/cuda" \
       "or set CUDA_HOME" >&2
  exit 1
fi
