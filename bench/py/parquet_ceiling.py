#!/usr/bin/env python3
"""Ceiling of lakeload's bench: the fastest Parquet encoders on the machine write the generated input once.

Usage: parquet_ceiling.py ENCODER OUT_DIR INPUT.parquet...

ENCODER is "pyarrow" (pyarrow.parquet.write_table: Arrow C++'s writer) or "parquet-rs" (DataFusion's
COPY ... TO through pypaimon_rust's SQLContext: the Rust parquet crate, with DataFusion's parallel column
encoding). Settings from the environment, which the runner takes from what lakeload's writer does:
  CEILING_LAYOUT     "pk" prepends _KEY_id, _SEQUENCE_NUMBER, _VALUE_KIND (a Paimon PK data file's layout:
                     the key column, sequence numbers, row kinds); "append" writes the input columns alone
  CEILING_DICT       comma-separated columns that get a dictionary (lakeload's choice for the same data),
                     or "*" for every column (each encoder's default)
  CEILING_ROW_GROUP  rows per row group
  CEILING_PAGE_BYTES data page size limit (bytes)
zstd level 1 (Paimon's default file.compression.zstd-level), page statistics on, one output file, no sort.
parquet-rs cannot take a per-column dictionary setting through SQL: any CEILING_DICT other than "*" turns its
dictionary off everywhere (reported as "dictionary": "none").

The timed span is reading the input with pyarrow + adding the layout's columns + encoding + writing the file
(the work of the arrow-go ceiling and lakeload's write, without Paimon metadata). Prints one JSON line:
{"rows", "elapsed", "cpu" (process CPU s of the span, all threads), "bytes", "created_by", "dictionary",
"row_groups"}; exits 1 when the file does not read back as many rows or was written by another library.
"""
import json
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def read_input(paths, layout):
    table = pa.concat_tables(pq.read_table(p) for p in paths)
    if layout == "pk":
        n = table.num_rows
        table = pa.Table.from_arrays(
            [table.column("id"), pa.array(np.arange(n, dtype=np.int64)), pa.array(np.zeros(n, dtype=np.int8))] + table.columns,
            names=["_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND"] + table.column_names)
    return table


def write_pyarrow(table, out, dict_cols, row_group, page_bytes):
    use_dict = True if dict_cols == "*" else [c for c in dict_cols.split(",") if c]
    pq.write_table(table, out, compression="zstd", compression_level=1, use_dictionary=use_dict,
                   row_group_size=row_group, data_page_size=page_bytes, data_page_version="1.0",
                   write_statistics=True)
    return "all" if use_dict is True else ",".join(use_dict) or "none"


def write_parquet_rs(table, out, dict_cols, row_group, page_bytes, scratch):
    from pypaimon_rust.datafusion import SQLContext  # noqa: PLC0415 (only this encoder needs it)
    ctx = SQLContext()
    # SQLContext plans only inside a Paimon catalog; an empty filesystem catalog in the scratch directory.
    ctx.register_catalog("ceiling", {"warehouse": os.path.join(scratch, "catalog")})
    ctx.set_current_catalog("ceiling")
    dictionary = dict_cols == "*"
    for key, value in [("compression", "'zstd(1)'"), ("dictionary_enabled", str(dictionary).lower()),
                       ("max_row_group_size", str(row_group)), ("data_pagesize_limit", str(page_bytes)),
                       ("statistics_enabled", "'page'"), ("writer_version", "'1.0'")]:
        ctx.sql("SET datafusion.execution.parquet.%s = %s" % (key, value))
    batches = table.combine_chunks().to_batches()
    if len(batches) != 1:
        batches = [pa.concat_batches(batches)]
    ctx.register_batch("input", batches[0])
    ctx.sql("COPY (SELECT * FROM input) TO '%s'" % out.replace("'", "''"))
    return "all" if dictionary else "none"


def main(argv):
    if len(argv) < 4 or argv[1] not in ("pyarrow", "parquet-rs"):
        sys.exit("usage: parquet_ceiling.py pyarrow|parquet-rs OUT_DIR INPUT.parquet...")
    encoder, scratch, inputs = argv[1], argv[2], argv[3:]
    layout = os.environ.get("CEILING_LAYOUT", "pk")
    dict_cols = os.environ.get("CEILING_DICT", "*")
    row_group = int(os.environ.get("CEILING_ROW_GROUP", "65536"))
    page_bytes = int(os.environ.get("CEILING_PAGE_BYTES", str(1 << 20)))
    os.makedirs(scratch, exist_ok=True)
    out = os.path.join(os.path.abspath(scratch), "ceiling.parquet")

    start, cpu0 = time.perf_counter(), time.process_time()
    table = read_input(inputs, layout)
    if encoder == "pyarrow":
        dictionary = write_pyarrow(table, out, dict_cols, row_group, page_bytes)
    else:
        dictionary = write_parquet_rs(table, out, dict_cols, row_group, page_bytes, scratch)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0

    md = pq.ParquetFile(out).metadata
    want = {"pyarrow": "parquet-cpp-arrow", "parquet-rs": "datafusion"}[encoder]
    if md.num_rows != table.num_rows or want not in md.created_by:
        sys.exit("%s ceiling: %s holds %d rows (want %d), created_by %r (want %s)"
                 % (encoder, out, md.num_rows, table.num_rows, md.created_by, want))
    print(json.dumps({"rows": table.num_rows, "elapsed": elapsed, "cpu": cpu, "bytes": os.path.getsize(out),
                      "created_by": md.created_by, "dictionary": dictionary, "row_groups": md.num_row_groups}),
          flush=True)


if __name__ == "__main__":
    main(sys.argv)
