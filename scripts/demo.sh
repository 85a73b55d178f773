#!/usr/bin/env bash
# Loads the bundled sample data (testdata/sample) into a local warehouse and scans it.
# Usage: scripts/demo.sh [WAREHOUSE]   (default: ./build/demo-warehouse, recreated each run)
set -euo pipefail
cd "$(dirname "$0")/.."
wh=${1:-$PWD/build/demo-warehouse}
bin=./build/lakeload
mkdir -p build
go build -o "$bin" ./cmd/lakeload
rm -rf "$wh"
run() { echo "+ lakeload $*"; "$bin" "$@"; }
run table create --warehouse "$wh" --table shop.orders \
  --column "id BIGINT NOT NULL" --column "customer STRING" --column "amount DECIMAL(12, 2)" \
  --column "status STRING" --column "ts TIMESTAMP(3)" --column "dt STRING NOT NULL" \
  --primary-key dt,id --partition-key dt --option bucket=4
# The exactly-once load job: rerunning either command after a crash resumes it; after it finished, it does nothing.
run load --warehouse "$wh" --table shop.orders --from 'testdata/sample/orders-[12].*' --job sample-orders --commit-rows 1000
run load --warehouse "$wh" --table shop.orders --from testdata/sample/orders-changes.csv --op-column op --job sample-changes
run load --warehouse "$wh" --table shop.orders --from 'testdata/sample/orders-[12].*' --job sample-orders --commit-rows 1000
run status --warehouse "$wh" --table shop.orders --job sample-orders
run snapshots --warehouse "$wh" --table shop.orders
run scan --warehouse "$wh" --table shop.orders --output table --limit 10
rows=$("$bin" scan --warehouse "$wh" --table shop.orders --output jsonl | wc -l)
echo "shop.orders holds $rows rows (expected 3037) in $wh"
