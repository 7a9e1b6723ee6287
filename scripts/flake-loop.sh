#!/usr/bin/env bash
# Runs every test binary of the workspace many times to find tests that fail only sometimes
# (not part of CI). Each binary runs RUNS times in parallel mode and RUNS times with
# --test-threads=1; with LOAD=1 a CPU hog (one busy loop per core) runs the whole time.
#
#   scripts/flake-loop.sh                 # 20 + 20 runs of every binary, no load
#   RUNS=5 LOAD=1 scripts/flake-loop.sh   # 5 + 5 runs under load
#   ONLY=sim_adb scripts/flake-loop.sh    # binaries whose name contains sim_adb
#
# Prints one line per binary (green runs / all runs) and the names of tests that ever failed;
# the failing runs' output is kept under target/flake-loop/. Exit 1 if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-20}
LOAD=${LOAD:-0}
ONLY=${ONLY:-}
out=target/flake-loop
rm -rf "$out" && mkdir -p "$out"

# Build once; list the test executables cargo made.
mapfile -t bins < <(cargo test --workspace --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys
for line in sys.stdin:
    try: m = json.loads(line)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("profile", {}).get("test") and m.get("executable"):
        print(m["executable"])
')
[ ${#bins[@]} -gt 0 ] || { echo "no test binaries built" >&2; exit 1; }

hogs=()
if [ "$LOAD" = 1 ]; then
  for _ in $(seq "$(nproc)"); do (while :; do :; done) & hogs+=($!); done
  trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
fi

failed=0
for bin in "${bins[@]}"; do
  name=$(basename "$bin" | sed 's/-[0-9a-f]*$//')
  [ -n "$ONLY" ] && [[ "$name" != *"$ONLY"* ]] && continue
  green=0 total=0
  for mode in parallel serial; do
    args=()
    [ "$mode" = serial ] && args=(--test-threads=1)
    for i in $(seq "$RUNS"); do
      total=$((total + 1))
      log="$out/$name-$mode-$i.log"
      # Tests find ../shared and the templates relative to the package root, as cargo runs them.
      pkg_dir=.
      [[ "$bin" == */sudoku_sim-* || "$bin" == */sim-* ]] && [ -d sim ] && pkg_dir=sim
      if (cd "$pkg_dir" && timeout 900 "$bin" "${args[@]}") >"$log" 2>&1; then
        green=$((green + 1))
        rm -f "$log"
      else
        failed=1
        grep -E '^test .* FAILED$|^---- ' "$log" | sed "s/^/    $mode run $i: /" | sort -u
      fi
    done
  done
  printf '%-28s %3d/%d green\n' "$name" "$green" "$total"
done
exit "$failed"
