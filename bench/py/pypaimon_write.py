#!/usr/bin/env python3
"""Peer scenario of lakeload's bench: pypaimon writes the generated input into a new PK table.

Usage: pypaimon_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...   (BENCH_MODE=append for an append table)

Creates table db.t in the filesystem catalog WAREHOUSE with the same schema and options as
bench/lakeload_test.go's pk table (partition dt, primary key (dt, id), bucket 8, parquet, zstd level 1;
with BENCH_MODE=append no primary key and bucket-key id),
then reads the input files with pyarrow in 65,536-row batches, hands each batch to one pypaimon batch
write (write_arrow) and commits once. The timed span ("elapsed") is create table + read + write +
commit, the same work the Go pk scenario times; "write" is write_arrow + prepare_commit + commit alone.
"startup" is LAUNCH_UNIX_NS (taken by the caller just before starting the process) to the moment the
imports are done. Afterwards (untimed) the table is read back with pypaimon and its row count must equal
the number of distinct (dt, id) keys of the input (later rows of a key replace earlier ones), or of
input rows for an append table.

Prints two JSON lines: {"rows", "startup", "elapsed", "write", "cpu"} ("cpu": process CPU seconds, all
threads, of the timed span) as soon as the commit is done (the caller
stops its wall clock there), then {"distinct_keys", "read_back"}; exits 1 with a message on stderr when
the read-back count is wrong.
"""
import json
import os
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
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


def create_table(warehouse, schema, pk):
    """Creates db.t (partition dt; primary key (dt, id) when pk, else bucket-key id) and returns the catalog."""
    options = dict(OPTIONS) if pk else dict(OPTIONS, **{"bucket-key": "id"})
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("db", False)
    catalog.create_table("db.t", Schema.from_pyarrow_schema(
        schema, partition_keys=["dt"], primary_keys=["dt", "id"] if pk else None, options=options), False)
    return catalog


def check_read_back(catalog, inputs, pk, who):
    """Untimed check: db.t reads back one row per distinct (dt, id) of the inputs (pk), or every input row.

    Prints {"distinct_keys", "read_back"}; exits 1 naming who wrote the table when they differ."""
    keys = pa.concat_tables(pq.read_table(p, columns=["dt", "id"]) for p in inputs)
    distinct = keys.group_by(["dt", "id"]).aggregate([]).num_rows if pk else keys.num_rows
    rb = catalog.get_table("db.t").new_read_builder()
    read_back = rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows
    print(json.dumps({"distinct_keys": distinct, "read_back": read_back}), flush=True)
    if read_back != distinct:
        sys.exit("%s table reads back %d rows, want %d distinct (dt, id)" % (who, read_back, distinct))


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: pypaimon_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...")
    warehouse, launch_ns, inputs = argv[1], int(argv[2]), argv[3:]
    startup = READY - launch_ns / 1e9
    schema = pa.schema([pa.field(n, t, nullable=nul) for n, t, nul in COLUMNS])
    pk = os.environ.get("BENCH_MODE", "pk") == "pk"

    start, cpu0 = time.perf_counter(), time.process_time()
    catalog = create_table(warehouse, schema, pk)
    table = catalog.get_table("db.t")
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    rows, write = 0, 0.0
    try:
        for path in inputs:
            for batch in pq.ParquetFile(path).iter_batches(batch_size=BATCH_ROWS):
                batch = batch.cast(schema) if batch.schema != schema else batch
                t = time.perf_counter()
                w.write_arrow(batch)
                write += time.perf_counter() - t
                rows += batch.num_rows
        t = time.perf_counter()
        c.commit(w.prepare_commit())
        write += time.perf_counter() - t
    finally:
        w.close()
        c.close()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
    print(json.dumps({"rows": rows, "startup": startup, "elapsed": elapsed, "write": write, "cpu": cpu}), flush=True)

    check_read_back(catalog, inputs, pk, "pypaimon")

if __name__ == "__main__":
    main(sys.argv)
