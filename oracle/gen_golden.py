#!/usr/bin/env python3
"""Regenerates testdata/golden from testdata/java-written with the Java oracle (`make golden`).

For every table WAREHOUSE/<db>.db/<table> and every snapshot-N file it holds, writes
testdata/golden/<table>/snapshot-<N>.jsonl (canonical sorted rows read by Java Paimon at snapshot N)
and testdata/golden/<table>/snapshots.jsonl (the Java snapshot listing). Snapshots Java cannot read
are listed in the README instead. Then reads the same snapshots with pypaimon and writes the
comparison into testdata/golden/README.md. Output is deterministic (no timings, no paths).

Env: LAKELOAD_JAVA_ORACLE (jar or command, default oracle/java/target/paimon-oracle.jar).
Run with the venv python that has pypaimon (the Makefile passes it).
"""

import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "oracle", "py"))

SRC = os.path.join(ROOT, "testdata", "java-written")
OUT = os.path.join(ROOT, "testdata", "golden")

JAVA_OPENS = ["--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
              "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED"]

# Why pypaimon 2.1.0 differs from Java on a fixture, by the error class/text it raises (kept here so a
# regeneration rewrites the README with the same explanations).
PY_CAUSES = [
    ("avro.schema", "manifest files are ORC (`manifest.format=orc`); pypaimon reads only Avro manifests"),
    ("is it an avro file", "manifest files are ORC (`manifest.format=orc`); pypaimon reads only Avro manifests"),
    ("codec can't decode byte", "manifest files are ORC (`manifest.format=orc`); pypaimon reads only Avro manifests"),
    ("_VALUE_STATS_COLS", "manifest entries written by Paimon 0.9 lack `_VALUE_STATS_COLS`, which pypaimon requires"),
    ("partial-update", "pypaimon refuses `merge-engine=partial-update` together with `ignore-delete`"),
    ("out of bounds for nanosecond resolution", "pypaimon's primary-key merge read converts TIMESTAMP(7..9) through "
     "microseconds, and an instant at the int64-nanosecond minimum rounds out of range"),
]


def java_argv():
    spec = os.environ.get("LAKELOAD_JAVA_ORACLE", "")
    if spec and not spec.endswith(".jar"):
        return shlex.split(spec)
    jar = spec or os.path.join(ROOT, "oracle", "java", "target", "paimon-oracle.jar")
    if not os.path.exists(jar):
        sys.exit("gen_golden: %s missing; run `make oracles`" % jar)
    argv = ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr"]
    jsa = jar[:-len(".jar")] + ".jsa"
    if os.path.exists(jsa):
        argv.append("-XX:SharedArchiveFile=" + jsa)
    return argv + JAVA_OPENS + ["-jar", jar]


class Java:
    def __init__(self):
        self.p = subprocess.Popen(java_argv() + ["batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, encoding="utf-8")

    def call(self, req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("gen_golden: java oracle died on %s" % req)
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def snapshot_ids(table_dir):
    ids = []
    for f in glob.glob(os.path.join(table_dir, "snapshot", "snapshot-*")):
        try:
            ids.append(int(os.path.basename(f)[len("snapshot-"):]))
        except ValueError:
            pass
    return sorted(ids)


def cause(err):
    for needle, why in PY_CAUSES:
        if needle in err:
            return why
    return "pypaimon error: " + err.splitlines()[0][:160]


def main():
    import paimon_oracle as py

    tables = sorted(glob.glob(os.path.join(SRC, "*.db", "*")))
    tables = [t for t in tables if os.path.isdir(os.path.join(t, "schema"))]
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    java = Java()
    java_errors, compare = [], []
    for tdir in tables:
        name = os.path.basename(tdir)
        rel = os.path.relpath(tdir, ROOT)
        os.makedirs(os.path.join(OUT, name))
        snaps = java.call({"cmd": "snapshots", "table": tdir})
        if "error" in snaps:
            java_errors.append((name, "all", snaps["error"]))
            continue
        with open(os.path.join(OUT, name, "snapshots.jsonl"), "w", encoding="utf-8") as fh:
            for s in snaps["snapshots"]:
                fh.write(json.dumps(s, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
        for sid in snapshot_ids(tdir):
            r = java.call({"cmd": "read", "table": tdir, "snapshot": sid})
            if "error" in r:
                java_errors.append((name, sid, r["error"]))
                continue
            with open(os.path.join(OUT, name, "snapshot-%d.jsonl" % sid), "w", encoding="utf-8") as fh:
                for line in r["rows"]:
                    fh.write(line + "\n")
            try:
                prow = py.read({"table": tdir, "snapshot": sid})
                if prow == r["rows"]:
                    status = "same (%d rows)" % len(prow)
                else:
                    only_j = sorted(set(r["rows"]) - set(prow))
                    only_p = sorted(set(prow) - set(r["rows"]))
                    status = "DIFFERS: java %d rows, py %d rows; only java: %s; only py: %s" % (
                        len(r["rows"]), len(prow), only_j[:3], only_p[:3])
            except Exception as e:  # pypaimon limitation: record it
                status = "py cannot read: " + cause("%s: %s" % (type(e).__name__, e))
            compare.append((name, rel, sid, len(r["rows"]), status))
    java.close()
    write_readme(tables, java_errors, compare)
    print("golden: %d tables, %d snapshot files, %d java errors" % (
        len(tables), sum(1 for c in compare), len(java_errors)))


def write_readme(tables, java_errors, compare):
    out = []
    w = out.append
    w("# Golden canonical rows of testdata/java-written")
    w("")
    w("Generated by `make golden` (`oracle/gen_golden.py`); do not edit by hand, rerun it.")
    w("")
    w("`<table>/snapshot-<N>.jsonl` holds what **Java Paimon** (the oracle in `oracle/java`, paimon-bundle "
      "1.4.2) returns for a batch read of `testdata/java-written/<table>.db/<table>` at snapshot N "
      "(`scan.snapshot-id=N`), one row per line in the canonical form of `oracle/README.md`, lines sorted "
      "bytewise. `<table>/snapshots.jsonl` is the Java snapshot listing (`oracle` `snapshots` command).")
    w("")
    w("Lakeload tests compare their canonical dump (`internal/canon.Rows`) with these files.")
    w("")
    w("## Snapshots Java could not read")
    w("")
    if java_errors:
        for name, sid, err in java_errors:
            w("- `%s` snapshot %s: %s" % (name, sid, err))
    else:
        w("None: every snapshot file of every fixture table was readable by Java (no expired files).")
    w("")
    w("## Java vs pypaimon 2.1.0 on the same snapshots")
    w("")
    w("| table | snapshot | java rows | pypaimon |")
    w("|---|---|---|---|")
    for name, _rel, sid, n, status in compare:
        w("| %s | %d | %d | %s |" % (name, sid, n, status.replace("|", "\\|")))
    w("")
    w("### Notes")
    w("")
    w("- Wherever pypaimon can read a fixture it returns exactly Java's rows, including the level-0 "
      "visibility rules: `pk_table_scan_and_read_first_row` (merge-engine first-row) shows **no rows** at "
      "snapshots 1-2 in both readers because batch scans skip level-0 files for first-row tables until a "
      "compaction (snapshot 3) moves them up; `pk_09` and `pk_table_scan_and_read_dv` "
      "(deletion-vectors.enabled) show no rows at snapshot 1 (only level-0 files) for the same reason "
      "(pypaimon 2.1.0 agrees with Java here, unlike what older pypaimon notes in "
      "shared/reference/oracles.md suggest). A lakeload reader must reproduce this: level-0 files are "
      "invisible to batch reads of first-row and DV tables.")
    w("- pypaimon cannot read ORC manifests (`append_09`, `append_10`, `append_with_empty_partition`, "
      "`parquet_append_table`), Paimon 0.9 manifests without `_VALUE_STATS_COLS` (`pk_09`), or "
      "partial-update with `ignore-delete` (`pk_table_partial_update`). For those tables Java is the only "
      "oracle.")
    w("- FLOAT columns are printed widened to double (`3.1F` -> `3.0999999046325684`); "
      "`parquet_append_table` shows it.")
    w("- `int96_append` and `int96_pk` are written by the Java oracle (`make java-fixtures`, "
      "`oracle/gen_java_fixtures.py`): TIMESTAMP(7..9) and TIMESTAMP(7..9) WITH LOCAL TIME ZONE are Parquet INT96, "
      "with a negative nanos of day for instants before 1970. pypaimon (pyarrow) reads INT96 into int64 "
      "nanoseconds and wraps silently beyond them, so these fixtures hold only instants within "
      "1677-09-21T00:12:43.145224192 .. 2262-04-11T23:47:16.854775807 in their INT96 columns.")
    w("")
    with open(os.path.join(OUT, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
