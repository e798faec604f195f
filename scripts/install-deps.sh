#!/usr/bin/env bash
# Installs what weft needs to build and test, from Debian's packages, only when missing.
set -euo pipefail
packages=(cmake ninja-build make g++ clang pkg-config googletest libgtest-dev libgmock-dev
          libbenchmark-dev libdw-dev libelf-dev nlohmann-json3-dev libcli11-dev doctest-dev
          help2man groff-base man-db chromium python3-jsonschema gdb
          libclang-rt-14-dev  # clang's libFuzzer and sanitizer runtimes (make fuzz)
          libomp-14-dev  # clang -fopenmp's omp.h and libomp to link (the OpenMP tests)
          clang-format-14 clang-tidy-14)  # make format-check (CI) and make tidy
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "weft: missing packages: ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "weft: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
