#!/usr/bin/env bash
# Makes sure HAProxy (PANEL_HAPROXY, default the `haproxy` on PATH or /usr/sbin/haproxy) is
# installed for the load-balancer suite (examples/blog/test/load-balancer.test.ts): on
# Debian/Ubuntu CI it installs the distribution's `haproxy` package when missing. Prints the
# binary's path on success.
set -euo pipefail
find_haproxy() {
  if [ -n "${PANEL_HAPROXY:-}" ] && [ -x "$PANEL_HAPROXY" ]; then echo "$PANEL_HAPROXY"; return 0; fi
  if command -v haproxy >/dev/null 2>&1; then command -v haproxy; return 0; fi
  if [ -x /usr/sbin/haproxy ]; then echo /usr/sbin/haproxy; return 0; fi
  return 1
}
if find_haproxy; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  echo "HAProxy is missing; installing Debian's haproxy package (apt-get update, apt-get install -y haproxy)." >&2
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq --no-install-recommends haproxy >&2
  # The package starts a system service on :80 on some images; the suite runs its own.
  $sudo_cmd service haproxy stop >/dev/null 2>&1 || true
  if find_haproxy; then exit 0; fi
fi
echo "HAProxy is not installed. The load-balancer suite (examples/blog/test/load-balancer.test.ts) runs it in front of two app processes;" >&2
echo "install Debian's haproxy package (apt-get install -y haproxy), or set PANEL_HAPROXY to an haproxy binary." >&2
exit 1
