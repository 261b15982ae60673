#!/usr/bin/env bash
# The PostgreSQL server binaries the store tests start a throwaway server with (tests/postgres.py):
# Debian's postgresql package when initdb is not already on PATH or under /usr/lib/postgresql.
set -euo pipefail
if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "postgres-install: initdb is missing and this is not root; the PostgreSQL store tests will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
# the package starts a cluster of its own; the tests start theirs, so stop the packaged one
if command -v pg_ctlcluster >/dev/null 2>&1; then
  for c in /etc/postgresql/*/main; do
    [ -d "$c" ] && pg_ctlcluster "$(basename "$(dirname "$c")")" main stop || true
  done
fi
