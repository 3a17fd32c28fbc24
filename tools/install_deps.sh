#!/usr/bin/env bash
# Installs the Debian packages autogemm builds against and the Python packages of its Python
# extension and tests, idempotently: packages already present are left alone, and when all are
# present this prints one line and changes nothing.
# The CUDA Toolkit itself is not a Debian package here; it is expected at /usr/local/cuda.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3
  libsqlite3-dev sqlite3
  nlohmann-json3-dev
  libspdlog-dev libfmt-dev
  libgtest-dev
  libcli11-dev
)

# Python packages for the Python extension and its tests (pip, for the python3 on PATH).
python_packages=(nanobind pytest numpy)

missing_python=()
for p in "${python_packages[@]}"; do
  python3 -c "import $p" 2>/dev/null || missing_python+=("$p")
done
if [ ${#missing_python[@]} -gt 0 ]; then
  echo "install_deps: pip installing ${missing_python[*]}"
  python3 -m pip install -q --disable-pip-version-check "${missing_python[@]}"
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#packages[@]} packages present; nothing to do"
  exit 0
fi

echo "install_deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
