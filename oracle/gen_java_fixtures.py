#!/usr/bin/env python3
"""Writes the Java-written fixture tables lakeload generates itself (`make java-fixtures`).

The other tables of testdata/java-written were copied from Paimon's own test data; these are written
by the Java oracle (`write` and `compact` requests, oracle/java Writes.java) from the rows below, so
they can be regenerated. Each table directory is replaced. Afterwards run `make golden` to read them
back with Java (testdata/golden).

Tables:
  int96_append  append table, TIMESTAMP(0..9) and TIMESTAMP(0..9) WITH LOCAL TIME ZONE (Java writes
                p > 6 as Parquet INT96 with a negative nanos of day before 1970), INT96 inside ARRAY,
                MAP and ROW; instants before 1970, before 1900, at both ends of int64 nanoseconds,
                far future, nulls; two commits.
  int96_pk      primary key (id, k9 TIMESTAMP(9)), bucket 1: inserts, upserts and a delete in two
                commits (merge-on-read over INT96 keys and values), a Java full compaction, one more
                upsert.

Env: LAKELOAD_JAVA_ORACLE as for gen_golden.py.
"""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_golden import ROOT, Java  # noqa: E402

OUT = os.path.join(ROOT, "testdata", "java-written")

NS_MIN = "1677-09-21T00:12:43.145224192"


def trunc(ts, p):
    """ts truncated to precision p (the canonical form keeps 9 digits); NS_MIN is rounded up instead,
    so that it stays within int64 nanoseconds."""
    head, frac = ts.split(".")
    if ts == NS_MIN and frac[p:].strip("0"):
        if p == 0:
            return "1677-09-21T00:12:44.000000000"
        return head + "." + str(int(frac[:p]) + 1).zfill(p) + "0" * (9 - p)  # no carry: 145224192
    return head + "." + frac[:p] + "0" * (9 - p)


# Instants (UTC wall clock, 9 fraction digits) that every timestamp column of a row holds, truncated to
# the column's precision. INT96 columns (p > 6) hold only int64-nanosecond instants, the range lakeload
# reads; WIDE and FAR are beyond it and go only into p <= 6 columns (INT64 millis/micros).
INSTANTS = [
    "1969-12-31T23:59:59.999999999",  # Java: Julian day 2440588, nanos of day -1
    "1969-12-31T23:59:59.999999000",  # nanos of day -1000 (the example)
    "1899-01-01T00:59:20.001001001",
    "1970-01-01T00:00:00.000000000",
    "1969-12-31T00:00:00.000000000",  # a day boundary before 1970: nanos of day 0
    "1969-12-30T23:59:59.000000001",
    NS_MIN,  # int64 nanoseconds minimum (rounded up at lower precisions)
    "2262-04-11T23:47:16.854775807",  # int64 nanoseconds maximum
    "2200-06-15T12:34:56.789012345",
    "2024-02-29T23:59:59.999999999",
    "1900-01-01T00:00:00.000000001",
]
WIDE = "0001-01-01T00:00:00.000000000"  # only for p <= 6
FAR = "9999-12-31T23:59:59.999999999"  # only for p <= 6




def append_rows():
    rows = []
    for i, ts in enumerate(INSTANTS + [WIDE, FAR, None], start=1):
        r = {"id": i}
        for p in range(10):
            v = None if ts is None or (ts in (WIDE, FAR) and p > 6) else trunc(ts, p)
            r["ts%d" % p] = v
            r["ltz%d" % p] = v
        if ts is None:
            r.update({"arr": None, "m": None, "r": None})
        elif ts in (WIDE, FAR):
            r.update({"arr": [], "m": [], "r": {"n": i, "t": None}})
        else:
            r.update({"arr": [trunc(ts, 9), None], "m": [["k", trunc(ts, 7)]], "r": {"n": i, "t": trunc(ts, 8)}})
        rows.append(r)
    return rows


APPEND_SPEC = {
    "columns": [{"name": "id", "type": "INT"}]
    + [{"name": "ts%d" % p, "type": "TIMESTAMP(%d)" % p} for p in range(10)]
    + [{"name": "ltz%d" % p, "type": "TIMESTAMP(%d) WITH LOCAL TIME ZONE" % p} for p in range(10)]
    + [
        {"name": "arr", "type": "ARRAY<TIMESTAMP(9)>"},
        {"name": "m", "type": "MAP<STRING, TIMESTAMP(7) WITH LOCAL TIME ZONE>"},
        {"name": "r", "type": "ROW<t TIMESTAMP(8), n INT>"},
    ],
}

PK_SPEC = {
    "columns": [
        {"name": "id", "type": "INT NOT NULL"},
        {"name": "k9", "type": "TIMESTAMP(9) NOT NULL"},
        {"name": "v7", "type": "TIMESTAMP(7)"},
        {"name": "l8", "type": "TIMESTAMP(8) WITH LOCAL TIME ZONE"},
        {"name": "s", "type": "STRING"},
    ],
    "primaryKeys": ["id", "k9"],
    "options": {"bucket": "1"},
}


def pk_row(i, k, v, s, kind=None):
    r = {"id": i, "k9": k, "v7": None if v is None else trunc(v, 7), "l8": None if v is None else trunc(v, 8), "s": s}
    if kind:
        r["_kind"] = kind
    return r


def main():
    java = Java()

    def call(req):
        r = java.call(req)
        if "error" in r:
            sys.exit("gen_java_fixtures: %s: %s" % (req["cmd"], r["error"]))
        return r

    path = os.path.join(OUT, "int96_append.db", "int96_append")
    shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    rows = append_rows()
    call({"cmd": "write", "table": path, "spec": APPEND_SPEC, "rows": rows[:6]})
    call({"cmd": "write", "table": path, "rows": rows[6:]})

    path = os.path.join(OUT, "int96_pk.db", "int96_pk")
    shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    keys = INSTANTS
    call({"cmd": "write", "table": path, "spec": PK_SPEC,
          "rows": [pk_row(i, k, keys[(i + 1) % len(keys)], "a%d" % i) for i, k in enumerate(keys)]})
    call({"cmd": "write", "table": path,
          "rows": [pk_row(i, keys[i], keys[(i + 4) % len(keys)], "b%d" % i) for i in range(0, len(keys), 2)]
          + [pk_row(1, keys[1], None, None, "-D"), pk_row(20, keys[0], None, "new")]})
    call({"cmd": "compact", "table": path})
    call({"cmd": "write", "table": path,
          "rows": [pk_row(3, keys[3], keys[0], "c3"), pk_row(21, keys[2], keys[2], "c21")]})
    java.close()
    print("java fixtures: int96_append, int96_pk")


if __name__ == "__main__":
    main()
