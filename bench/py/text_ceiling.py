#!/usr/bin/env python3
"""Text-input ceiling of lakeload's bench (text-csv, text-jsonl): pyarrow's CSV or JSON reader parses the files.

Usage: text_ceiling.py csv|jsonl INPUT...

Reads every INPUT with pyarrow.csv.read_csv (header row, the bench's column types) or pyarrow.json.read_json
(the bench's schema as explicit_schema), pyarrow's default threads, into one Arrow table per file, and drops
it: parse throughput only, nothing is written. Prints one JSON line {"rows", "elapsed", "cpu"} ("cpu":
time.process_time(), all threads, of the timed span).
"""
import json
import sys
import time

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.json as pajson

# Must match bench/gen.go's InputSchema.
SCHEMA = pa.schema([
    ("id", pa.int64()), ("name", pa.string()), ("city", pa.string()), ("tag", pa.string()),
    ("v", pa.float64()), ("w", pa.float64()), ("ts", pa.int64()), ("dt", pa.string()),
])


def read_text(fmt, path):
    """One input file as an Arrow table with SCHEMA's columns in order."""
    if fmt == "csv":
        t = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
            column_types={f.name: f.type for f in SCHEMA}, strings_can_be_null=True))
    elif fmt == "jsonl":
        t = pajson.read_json(path, parse_options=pajson.ParseOptions(explicit_schema=SCHEMA))
    else:
        sys.exit("format %s: want csv or jsonl" % fmt)
    return t.select(SCHEMA.names)


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: text_ceiling.py csv|jsonl INPUT...")
    fmt, inputs = argv[1], argv[2:]
    start, cpu0 = time.perf_counter(), time.process_time()
    rows = 0
    for p in inputs:
        rows += read_text(fmt, p).num_rows
    print(json.dumps({"rows": rows, "elapsed": time.perf_counter() - start, "cpu": time.process_time() - cpu0}), flush=True)


if __name__ == "__main__":
    main(sys.argv)
