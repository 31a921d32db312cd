#!/usr/bin/env bash
# Makes sure PgBouncer (PANEL_PGBOUNCER, default the `pgbouncer` on PATH or /usr/sbin/pgbouncer)
# is installed for the PgBouncer suite (packages/core/test/pgbouncer.test.ts): on Debian/Ubuntu
# CI it installs the distribution's `pgbouncer` package when missing. Prints the binary's path
# on success.
exec bash "$(dirname "$0")/ensure-debian-tool.sh" pgbouncer PANEL_PGBOUNCER \
  "The PgBouncer suite (packages/core/test/pgbouncer.test.ts) runs it between Panel and PostgreSQL"
