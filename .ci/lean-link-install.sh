#!/usr/bin/env bash
# What `make lean` links the in-process library with (model/oracle/library.py): a C++ compiler and GMP's
# headers and library (Debian's g++ and libgmp-dev), installed when missing and this is root.
set -euo pipefail
if command -v c++ >/dev/null 2>&1 && dpkg -s libgmp-dev >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "lean-link-install: c++ or libgmp-dev is missing and this is not root; make lean will fail to link" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq g++ libgmp-dev >/dev/null
