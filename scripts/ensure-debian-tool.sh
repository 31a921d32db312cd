#!/usr/bin/env bash
# Makes sure a tool a suite runs is installed, and prints its binary's path on success:
#   ensure-debian-tool.sh <binary> <ENV_VAR> <what needs it>
# The binary is $ENV_VAR when set, else <binary> on PATH or in /usr/sbin. When it is missing on
# Debian/Ubuntu CI, Debian's package of the same name is installed (as root, or with sudo), and a
# system service the package may start is stopped: the suites run their own on free ports.
set -euo pipefail
binary="$1" variable="$2" needed_by="$3"
find_tool() {
  local chosen="${!variable:-}"
  if [ -n "$chosen" ] && [ -x "$chosen" ]; then echo "$chosen"; return 0; fi
  if command -v "$binary" >/dev/null 2>&1; then command -v "$binary"; return 0; fi
  if [ -x "/usr/sbin/$binary" ]; then echo "/usr/sbin/$binary"; return 0; fi
  return 1
}
if find_tool; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  echo "$binary is missing; installing Debian's $binary package (apt-get update, apt-get install -y $binary)." >&2
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq --no-install-recommends "$binary" >&2
  $sudo_cmd service "$binary" stop >/dev/null 2>&1 || true
  if find_tool; then exit 0; fi
fi
echo "$binary is not installed. $needed_by;" >&2
echo "install Debian's $binary package (apt-get install -y $binary), or set $variable to a $binary binary." >&2
exit 1
