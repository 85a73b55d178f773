#!/usr/bin/env python3
"""Peer scenario of lakeload's bench: pypaimon writes the generated input into a new PK table.

Usage: pypaimon_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...   (BENCH_MODE=append for an append table,
BENCH_MODE=append-unaware for a bucket-unaware one (bucket -1); BENCH_WRITER=rust for pypaimon's Rust writer;
BENCH_INPUT=csv|jsonl: the inputs are CSV / JSON Lines files, read with pyarrow's CSV / JSON reader)

Creates table db.t in the filesystem catalog WAREHOUSE with the same schema and options as
bench/lakeload_test.go's pk table (partition dt, primary key (dt, id), bucket 8, parquet, zstd level 1;
with BENCH_MODE=append no primary key and bucket-key id, with append-unaware no primary key and bucket -1),
then reads the input files with pyarrow in 65,536-row batches, hands each batch to one pypaimon batch
write (write_arrow) and commits once. The timed span ("elapsed") is create table + read + write +
commit, the same work the Go pk scenario times; "write" is write_arrow + prepare_commit + commit alone.
"startup" is LAUNCH_UNIX_NS (taken by the caller just before starting the process) to the moment the
imports are done. Afterwards (untimed) the table is read back with pypaimon and its row count must equal
the number of distinct (dt, id) keys of the input (later rows of a key replace earlier ones), or of
input rows for an append table.

BENCH_WRITER=rust sets the table option write.native.enabled=true (pypaimon then writes the data files with
pypaimon-rust, the Rust parquet crate, and still commits in Python) and makes WAREHOUSE absolute: pypaimon
silently falls back to its Python writer on any setup error of the Rust path (issue 18 names a relative warehouse),
so the script proves the Rust path ran: the batch writer must be pypaimon's NativeTableWrite still holding
its Rust writer after the commit, and every data file of the table must say created_by parquet-rs; else it
exits 1. With the default BENCH_WRITER=python the data files must say parquet-cpp-arrow (pyarrow's writer).

Prints two JSON lines: {"rows", "startup", "elapsed", "write", "cpu"} ("cpu": process CPU seconds, all
threads, of the timed span) as soon as the commit is done (the caller
stops its wall clock there), then {"distinct_keys", "read_back", "data_files", "created_by"}; exits 1 with a
message on stderr when the read-back count is wrong or the data files were written by the other writer.
"""
import glob
import json
import os
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq

from text_ceiling import read_text
from pypaimon import CatalogFactory, Schema

READY = time.time()

BATCH_ROWS = 65_536
# Must match bench/gen_test.go's tableColumns and bench/lakeload_test.go's newTable.
COLUMNS = [
    ("id", pa.int64(), False), ("name", pa.string(), True), ("city", pa.string(), True),
    ("tag", pa.string(), True), ("v", pa.float64(), True), ("w", pa.float64(), True),
    ("ts", pa.int64(), True), ("dt", pa.string(), False),
]
OPTIONS = {"bucket": "8", "file.format": "parquet", "file.compression": "zstd",
           "file.compression.zstd-level": "1"}


# created_by of the data files each writer produces (the prefix the check expects).
CREATED_BY = {"python": "parquet-cpp-arrow", "rust": "parquet-rs"}


def create_table(warehouse, schema, pk, writer="python", unaware=False):
    """Creates db.t (partition dt; primary key (dt, id) when pk, else bucket-key id, or bucket -1 when unaware)
    and returns the catalog.

    writer "rust" adds write.native.enabled=true."""
    options = dict(OPTIONS) if pk else dict(OPTIONS, **{"bucket-key": "id"})
    if unaware:
        options = dict(OPTIONS, bucket="-1")
    if writer == "rust":
        options["write.native.enabled"] = "true"
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("db", False)
    catalog.create_table("db.t", Schema.from_pyarrow_schema(
        schema, partition_keys=["dt"], primary_keys=["dt", "id"] if pk else None, options=options), False)
    return catalog


def data_file_writers(warehouse):
    """The distinct created_by of every Parquet data file of db.t (the bucket directories)."""
    files = glob.glob(os.path.join(warehouse, "db.db", "t", "*", "bucket-*", "*.parquet"))
    return len(files), sorted({pq.ParquetFile(f).metadata.created_by for f in files})


def check_read_back(catalog, inputs, pk, who, warehouse=None, writer="python", rows=None):
    """Untimed check: db.t reads back one row per distinct (dt, id) of the inputs (pk), or every input row,
    and (with warehouse) every data file was written by writer's Parquet library.

    Prints {"distinct_keys", "read_back"[, "data_files", "created_by"]}; exits 1 naming who wrote the table
    when they differ."""
    if rows is not None and not pk:  # text inputs of an append table: every row written
        distinct = rows
    else:
        keys = pa.concat_tables(pq.read_table(p, columns=["dt", "id"]) for p in inputs)
        distinct = keys.group_by(["dt", "id"]).aggregate([]).num_rows if pk else keys.num_rows
    rb = catalog.get_table("db.t").new_read_builder()
    read_back = rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows
    report = {"distinct_keys": distinct, "read_back": read_back}
    if warehouse is not None:
        report["data_files"], writers = data_file_writers(warehouse)
        report["created_by"] = ";".join(writers)
    print(json.dumps(report), flush=True)
    if read_back != distinct:
        sys.exit("%s table reads back %d rows, want %d distinct (dt, id)" % (who, read_back, distinct))
    if warehouse is not None:
        want = CREATED_BY[writer]
        if report["data_files"] == 0 or any(not w.startswith(want) for w in writers):
            sys.exit("%s: %d data files written by %s, want all by %s (the %s writer did not run)"
                     % (who, report["data_files"], writers, want, writer))


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: pypaimon_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...")
    warehouse, launch_ns, inputs = argv[1], int(argv[2]), argv[3:]
    startup = READY - launch_ns / 1e9
    schema = pa.schema([pa.field(n, t, nullable=nul) for n, t, nul in COLUMNS])
    mode = os.environ.get("BENCH_MODE", "pk")
    if mode not in ("pk", "append", "append-unaware"):
        sys.exit("BENCH_MODE=%s: want pk, append or append-unaware" % mode)
    pk, unaware = mode == "pk", mode == "append-unaware"
    text = os.environ.get("BENCH_INPUT", "parquet")
    if text not in ("parquet", "csv", "jsonl"):
        sys.exit("BENCH_INPUT=%s: want parquet, csv or jsonl" % text)
    writer = os.environ.get("BENCH_WRITER", "python")
    if writer not in CREATED_BY:
        sys.exit("BENCH_WRITER=%s: want python or rust" % writer)
    if writer == "rust":
        # Issue 18 saw pypaimon's Rust path fall back to Python silently on a relative warehouse: make it absolute.
        warehouse = os.path.abspath(warehouse)
        from pypaimon.write.native_write import NativeTableWrite, native_write_available  # noqa: PLC0415
        if not native_write_available():
            sys.exit("BENCH_WRITER=rust: pypaimon_rust.datafusion is not importable (bench/py/setup_venv.sh)")

    start, cpu0 = time.perf_counter(), time.process_time()
    catalog = create_table(warehouse, schema, pk, writer, unaware)
    table = catalog.get_table("db.t")
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    if writer == "rust" and not isinstance(w, NativeTableWrite):
        sys.exit("BENCH_WRITER=rust: pypaimon chose its Python writer %s (the Rust path's setup failed)" % type(w))
    rows, write = 0, 0.0
    try:
        for path in inputs:
            batches = (pq.ParquetFile(path).iter_batches(batch_size=BATCH_ROWS) if text == "parquet"
                       else read_text(text, path).to_batches(max_chunksize=BATCH_ROWS))
            for batch in batches:
                batch = batch.cast(schema) if batch.schema != schema else batch
                t = time.perf_counter()
                w.write_arrow(batch)
                write += time.perf_counter() - t
                rows += batch.num_rows
        t = time.perf_counter()
        c.commit(w.prepare_commit())
        write += time.perf_counter() - t
    finally:
        # The Rust writer is still in place after the commit (NativeTableWrite never switches back).
        native = writer == "rust" and w._native_writer is not None and w._python_writer is None
        w.close()
        c.close()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
    print(json.dumps({"rows": rows, "startup": startup, "elapsed": elapsed, "write": write, "cpu": cpu}), flush=True)
    if writer == "rust" and not native:
        sys.exit("BENCH_WRITER=rust: the writer switched to Python during the write")

    check_read_back(catalog, inputs, pk, "pypaimon (%s writer)" % writer, warehouse, writer,
                    rows if text != "parquet" else None)

if __name__ == "__main__":
    main(sys.argv)
