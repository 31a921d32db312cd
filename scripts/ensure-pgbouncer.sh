#!/usr/bin/env bash
# Makes sure PgBouncer (PANEL_PGBOUNCER, default the `pgbouncer` on PATH or /usr/sbin/pgbouncer)
# is installed for the pooler suite (packages/core/test/pgbouncer.test.ts): on Debian/Ubuntu CI
# it installs the distribution's `pgbouncer` package when missing. Prints the binary's path on
# success.
set -euo pipefail
find_pgbouncer() {
  if [ -n "${PANEL_PGBOUNCER:-}" ] && [ -x "$PANEL_PGBOUNCER" ]; then echo "$PANEL_PGBOUNCER"; return 0; fi
  if command -v pgbouncer >/dev/null 2>&1; then command -v pgbouncer; return 0; fi
  if [ -x /usr/sbin/pgbouncer ]; then echo /usr/sbin/pgbouncer; return 0; fi
  return 1
}
if find_pgbouncer; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  echo "PgBouncer is missing; installing Debian's pgbouncer package (apt-get update, apt-get install -y pgbouncer)." >&2
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq --no-install-recommends pgbouncer >&2
  # The package may start a system service on :6432; the suite runs its own on a free port.
  $sudo_cmd service pgbouncer stop >/dev/null 2>&1 || true
  if find_pgbouncer; then exit 0; fi
fi
echo "PgBouncer is not installed. The pooler suite (packages/core/test/pgbouncer.test.ts) runs it between Panel and PostgreSQL;" >&2
echo "install Debian's pgbouncer package (apt-get install -y pgbouncer), or set PANEL_PGBOUNCER to a pgbouncer binary." >&2
exit 1
