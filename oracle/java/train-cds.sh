#!/usr/bin/env bash
# Writes target/paimon-oracle.jsa, a class-data-sharing archive of the classes a few real reads load.
# The Go client and gen_golden.py pass -XX:SharedArchiveFile when it exists: it halves the first-read
# latency of a fresh JVM (about 1.9 s -> 0.9 s here). Harmless when stale: the JVM then ignores it.
set -euo pipefail
cd "$(dirname "$0")"
# The JVM only maps the archive for the same class path string: always use the absolute jar path.
jar="$PWD/target/paimon-oracle.jar"
fx="$PWD/../../testdata/java-written"
jsa="$PWD/target/paimon-oracle.jsa"
rm -f "$jsa"
{
  for t in pk_table_scan_and_read_dv parquet_append_table pk_table_partial_update; do
    echo "{\"cmd\":\"read\",\"table\":\"$fx/$t.db/$t\",\"filter\":{\"op\":\"is_not_null\",\"field\":\"f0\"}}"
    echo "{\"cmd\":\"read\",\"table\":\"$fx/$t.db/$t\"}"
    echo "{\"cmd\":\"snapshots\",\"table\":\"$fx/$t.db/$t\"}"
  done
} | java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ArchiveClassesAtExit="$jsa" -jar "$jar" batch \
    >/dev/null 2>target/train-cds.log || { echo "train-cds: failed, see oracle/java/target/train-cds.log" >&2; rm -f "$jsa"; exit 0; }
