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
    if ! go test "$pkg" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -parallel 2 >/tmp/fuzz-$fn.log 2>&1; then
      # Go's fuzz coordinator can end a short run with "context deadline exceeded" when the time is up
      # while a worker still runs an input (a loaded machine); no input failed then, none was written.
      if grep -q 'context deadline exceeded' /tmp/fuzz-$fn.log && ! grep -q 'Failing input written' /tmp/fuzz-$fn.log; then
        echo "fuzz: $fn: the fuzz time ran out inside an input (no failing input); running its corpus instead"
        go test "$pkg" -run "^${fn}\$" >/tmp/fuzz-$fn.log 2>&1 || { cat /tmp/fuzz-$fn.log; echo "fuzz: $fn FAILED"; exit 1; }
      else
        cat /tmp/fuzz-$fn.log; echo "fuzz: $fn FAILED"; exit 1
      fi
    fi
    n=$((n+1))
  done
done
echo "fuzz: $n targets passed"
