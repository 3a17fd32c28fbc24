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

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#packages[@]} Debian packages present"
else
  echo "install_deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Python packages for the Python extension and its tests, with pip for the python3 on PATH (a
# virtual environment's or pyenv's: Debian's own python3 refuses pip installs, PEP 668).
python_packages=(nanobind pytest numpy)
missing_python=()
for p in "${python_packages[@]}"; do
  python3 -c "import $p" 2>/dev/null || missing_python+=("$p")
done
if [ ${#missing_python[@]} -eq 0 ]; then
  echo "install_deps: all ${#python_packages[@]} Python packages present"
elif ! python3 -m pip install -q --disable-pip-version-check "${missing_python[@]}"; then
  echo "install_deps: pip could not install ${missing_python[*]} for $(command -v python3);" \
    "activate a virtual environment (python3 -m venv .venv && . .venv/bin/activate) and run this again" >&2
  exit 1
fi
