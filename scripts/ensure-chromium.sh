#!/usr/bin/env bash
# Makes sure the Chromium the browser suite drives (PANEL_CHROMIUM, default /usr/bin/chromium) is
# installed: on Debian/Ubuntu CI it installs the distribution's `chromium` package when missing.
set -euo pipefail
browser="${PANEL_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi
if [ "${PANEL_BROWSER_TESTS:-}" = "off" ]; then
  echo "Chromium missing at $browser; the browser suite is off (PANEL_BROWSER_TESTS=off)." >&2
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends chromium >/dev/null
  [ -x "$browser" ] && exit 0
fi
echo "Chromium is not installed at $browser. The browser suite (examples/blog/test/*.browser.test.ts) drives it;" >&2
echo "install Debian's chromium package, set PANEL_CHROMIUM to a Chromium binary, or run with PANEL_BROWSER_TESTS=off." >&2
exit 1
