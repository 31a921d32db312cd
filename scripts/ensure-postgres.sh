#!/usr/bin/env bash
# Makes sure the PostgreSQL server the suite uses (DATABASE_URL, default 127.0.0.1:5432) answers.
# Starts the machine's local cluster when it is installed but stopped; never installs anything.
set -uo pipefail
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -d "$url"; then
  exit 0
fi
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
  done
  for _ in $(seq 1 20); do
    pg_isready -q -d "$url" && exit 0
    sleep 0.5
  done
fi
echo "PostgreSQL does not answer at $url. The suite runs every database test on PGlite and PostgreSQL;" >&2
echo "start a server (or set DATABASE_URL), or run PANEL_TEST_DATABASES=pglite npm test for PGlite alone." >&2
exit 1
