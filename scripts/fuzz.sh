#!/usr/bin/env bash
# Runs every Go fuzz target for FUZZTIME each (default 5s; `make fuzz` uses 60s).
# Usage: scripts/fuzz.sh [FUZZTIME]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
targets=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort)
n=0
for f in $targets; do
  pkg=./$(dirname "${f#./}")
  for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz: $pkg $fn ($fuzztime)"
    go test "$pkg" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -parallel 2 >/tmp/fuzz-$fn.log 2>&1 || {
      cat /tmp/fuzz-$fn.log; echo "fuzz: $fn FAILED"; exit 1; }
    n=$((n+1))
  done
done
echo "fuzz: $n targets passed"
