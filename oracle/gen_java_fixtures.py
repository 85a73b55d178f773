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

  orc_append, avro_append  append tables, partitioned by p, every column type Java writes in that
                format (avro: no TIMESTAMP(7..9)), nulls, nested ARRAY/MAP/ROW, a MAP with INT keys;
                a commit, an added column (Java SchemaManager: schema 1), a commit with it.
  orc_pk, avro_pk  primary key (id), 2 buckets: inserts, upserts and a delete in two commits
                (merge-on-read across files), a Java full compaction, one more upsert; orc_pk with
                'file.compression'='zlib'.
  orc_snappy, orc_none, orc_lz4  one commit each with that ORC codec (orc_append: zstd, the default).

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


FORMAT_COLS = [
    ("id", "INT"), ("b", "BOOLEAN"), ("ti", "TINYINT"), ("si", "SMALLINT"), ("bi", "BIGINT"),
    ("f", "FLOAT"), ("d", "DOUBLE"), ("dec5", "DECIMAL(5, 2)"), ("dec18", "DECIMAL(18, 4)"),
    ("dec38", "DECIMAL(38, 10)"), ("s", "STRING"), ("vc", "VARCHAR(10)"), ("ch", "CHAR(3)"),
    ("by", "BYTES"), ("bin", "BINARY(2)"), ("dt", "DATE"), ("tm", "TIME"),
    ("ts0", "TIMESTAMP(0)"), ("ts3", "TIMESTAMP(3)"), ("ts6", "TIMESTAMP(6)"), ("ts9", "TIMESTAMP(9)"),
    ("ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE"), ("ltz6", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
    ("ltz9", "TIMESTAMP(9) WITH LOCAL TIME ZONE"),
    ("arr", "ARRAY<INT>"), ("m", "MAP<STRING, BIGINT>"), ("mi", "MAP<INT, STRING>"),
    ("r", "ROW<x INT, y STRING, z ARRAY<DOUBLE>>"), ("p", "STRING"),
]


def format_row(i, avro):
    ts = INSTANTS[i % len(INSTANTS)]
    r = {
        "id": i, "b": i % 2 == 0, "ti": (i * 37) % 256 - 128, "si": (i * 3001) % 65536 - 32768,
        "bi": (i * 1000000007) * (-1) ** i, "f": i / 4.0 - 1, "d": -i / 8.0 + 0.1,
        "dec5": "%d.%02d" % ((-1) ** i * (i * 7 % 999), i % 100),
        "dec18": "%d.%04d" % ((-1) ** i * (i * 12345678901 % 10 ** 14), i % 10000),
        "dec38": "%d.%010d" % ((-1) ** i * (i * 1234567890123456789012345 % 10 ** 28), i * 7 % 10 ** 10),
        "s": "s%d-é" % i, "vc": "v%d" % i, "ch": "c%d" % (i % 10), "by": "%02x00ff" % (i % 256),
        "bin": "%02x%02x" % (i % 256, (i * 3) % 256), "dt": ["1969-12-31", "1970-01-01", "1899-12-31", "2024-02-29", "9999-12-31"][i % 5],
        "tm": "%02d:%02d:%02d.%03d" % (i % 24, i % 60, (i * 7) % 60, i % 1000),
        "arr": [i, None, -i], "m": [["k%d" % i, i], ["n", None]], "mi": [[i, "a"], [-i - 1, None]],
        "r": {"x": i, "y": "y%d" % i, "z": [i / 2.0, None]}, "p": "p%d" % (i % 2),
    }
    for p in (0, 3, 6, 9):
        r["ts%d" % p] = trunc(ts, p)
    for p in (3, 6, 9):
        r["ltz%d" % p] = trunc(ts, p)
    if avro:
        for c in ("ts9", "ltz9"):
            del r[c]
    return r


def null_row(i, avro):
    r = {c: None for c, _ in FORMAT_COLS if not (avro and c in ("ts9", "ltz9"))}
    r.update({"id": i, "p": "p%d" % (i % 2)})
    return r


def format_spec(fmt, extra=None):
    avro = fmt == "avro"
    cols = [{"name": c, "type": t} for c, t in FORMAT_COLS if not (avro and c in ("ts9", "ltz9"))]
    opts = {"file.format": fmt}
    opts.update(extra or {})
    return {"columns": cols, "partitionKeys": ["p"], "options": opts}


PK_FMT_COLS = [("id", "INT NOT NULL"), ("v", "STRING"), ("n", "BIGINT"), ("dec", "DECIMAL(20, 3)"), ("ts", "TIMESTAMP(6)")]


def pk_fmt_row(i, v, kind=None):
    r = {"id": i, "v": v, "n": None if v is None else i * 10, "dec": None if v is None else "%d.%03d" % (i, i),
         "ts": None if v is None else trunc(INSTANTS[i % len(INSTANTS)], 6)}
    if kind:
        r["_kind"] = kind
    return r


def write_format_tables(call):
    for fmt in ("orc", "avro"):
        avro = fmt == "avro"
        path = os.path.join(OUT, "%s_append.db" % fmt, "%s_append" % fmt)
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        call({"cmd": "write", "table": path, "spec": format_spec(fmt),
              "rows": [format_row(i, avro) for i in range(1, 7)] + [null_row(7, avro)]})
        call({"cmd": "addColumn", "table": path, "name": "extra", "type": "STRING"})
        rows = [format_row(i, avro) for i in range(8, 12)] + [null_row(12, avro)]
        for r in rows:
            r["extra"] = None if r["id"] == 12 else "e%d" % r["id"]
        call({"cmd": "write", "table": path, "rows": rows})

        path = os.path.join(OUT, "%s_pk.db" % fmt, "%s_pk" % fmt)
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        opts = {"file.format": fmt, "bucket": "2"}
        if fmt == "orc":
            opts["file.compression"] = "zlib"
        spec = {"columns": [{"name": c, "type": t} for c, t in PK_FMT_COLS], "primaryKeys": ["id"], "options": opts}
        call({"cmd": "write", "table": path, "spec": spec, "rows": [pk_fmt_row(i, "a%d" % i) for i in range(10)]})
        call({"cmd": "write", "table": path,
              "rows": [pk_fmt_row(i, "b%d" % i) for i in range(0, 10, 3)] + [pk_fmt_row(1, None, "-D"), pk_fmt_row(20, "new")]})
        call({"cmd": "compact", "table": path})
        call({"cmd": "write", "table": path, "rows": [pk_fmt_row(3, "c3"), pk_fmt_row(21, "c21")]})

    for codec in ("snappy", "none", "lz4"):
        path = os.path.join(OUT, "orc_%s.db" % codec, "orc_%s" % codec)
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        call({"cmd": "write", "table": path, "spec": format_spec("orc", {"file.compression": codec}),
              "rows": [format_row(i, False) for i in range(1, 5)] + [null_row(5, False)]})


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
    write_format_tables(call)
    java.close()
    print("java fixtures: int96_append, int96_pk, orc_append, orc_pk, avro_append, avro_pk, orc_snappy, orc_none, orc_lz4")


if __name__ == "__main__":
    main()
