#!/usr/bin/env bash
# Runs a command while a CPU hog keeps every core busy: FACTOR × nproc busy loops at the command's own
# priority, each bounded by MAX seconds, all killed when the command ends (or this script is
# interrupted, which also ends the command). Exits with the command's status. `make test-loaded` / `test-loaded-short` use it.
# Usage: scripts/with-cpu-hog.sh [-x FACTOR (default 2)] [-t MAX seconds (default 1800)] -- command [args…]
set -euo pipefail
factor=2 max=1800
while [ $# -gt 0 ]; do
  case $1 in
    -x) factor=$2; shift 2 ;;
    -t) max=$2; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [-x FACTOR] [-t MAX] -- command [args…]" >&2; exit 2; }
n=$((factor * $(nproc)))
hogs=()
stop() {
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${hogs[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop EXIT
for _ in $(seq "$n"); do
  timeout "$max" bash -c 'while :; do :; done' &
  hogs+=($!)
done
echo "cpu-hog: $n busy loops ($factor × $(nproc) cores, at most ${max}s) while: $*" >&2
# The command runs in its own session and process group, so an interrupt ends all of it (go test and its test binaries).
setsid -w "$@" &
cmd=$!
end() { kill -TERM -- "-$cmd" 2>/dev/null || kill -TERM "$cmd" 2>/dev/null || true; }
trap 'end; exit 130' INT
trap 'end; exit 143' TERM
status=0
wait "$cmd" || status=$?
echo "cpu-hog: stopped (command exit $status)" >&2
exit $status
