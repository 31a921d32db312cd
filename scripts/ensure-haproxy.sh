#!/usr/bin/env bash
# Makes sure HAProxy (PANEL_HAPROXY, default the `haproxy` on PATH or /usr/sbin/haproxy) is
# installed for the load-balancer suite (examples/blog/test/load-balancer.test.ts): on
# Debian/Ubuntu CI it installs the distribution's `haproxy` package when missing (the package
# starts a system service on :80 on some images; it is stopped). Prints the binary's path on
# success.
exec bash "$(dirname "$0")/ensure-debian-tool.sh" haproxy PANEL_HAPROXY \
  "The load-balancer suite (examples/blog/test/load-balancer.test.ts) runs it in front of two app processes"
