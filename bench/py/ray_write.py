#!/usr/bin/env python3
"""Ray Data peer of lakeload's bench: Ray Data reads the generated input and pypaimon's write_paimon writes it.

Usage: ray_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...   (BENCH_MODE=append for an append table)

Starts a local Ray (num_cpus=2, no dashboard), creates table db.t in the filesystem catalog WAREHOUSE with the
schema and options of pypaimon_write.py, then ray.data.read_parquet(inputs) and pypaimon.ray.write_paimon (one
commit; PK tables with hash_fixed_precluster="map_groups", which pypaimon requires for them). "elapsed" is create table + read + write + commit; "init" is ray.init; "startup" is launch to imports
done; "driver_cpu" is the driver process's CPU seconds in the timed span (Ray workers are other processes, not
counted). Afterwards (untimed) the table is read back with pypaimon and must hold one row per distinct (dt, id)
(pk) or every input row (append). Prints {"rows", "startup", "init", "elapsed"} after the commit, then
{"distinct_keys", "read_back"}; exits 1 on a wrong count.
"""
import json
import os
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data
from pypaimon.ray import write_paimon

from pypaimon_write import COLUMNS, check_read_back, create_table

READY = time.time()


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: ray_write.py WAREHOUSE LAUNCH_UNIX_NS INPUT.parquet...")
    warehouse, launch_ns, inputs = argv[1], int(argv[2]), [os.path.abspath(p) for p in argv[3:]]
    startup = READY - launch_ns / 1e9
    pk = os.environ.get("BENCH_MODE", "pk") == "pk"
    schema = pa.schema([pa.field(n, t, nullable=nul) for n, t, nul in COLUMNS])

    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ray.data.DataContext.get_current().enable_progress_bars = False
    init = time.perf_counter() - t0

    start, cpu0 = time.perf_counter(), time.process_time()
    catalog = create_table(warehouse, schema, pk)
    ds = ray.data.read_parquet(inputs, schema=schema)
    # PK tables need the (partition, bucket) pre-clustering: one Ray task per bucket (pypaimon refuses otherwise).
    write_paimon(ds, "db.t", {"warehouse": warehouse}, hash_fixed_precluster="map_groups" if pk else "auto")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
    rows = sum(pq.ParquetFile(p).metadata.num_rows for p in inputs)
    print(json.dumps({"rows": rows, "startup": startup, "init": init, "elapsed": elapsed, "driver_cpu": cpu}), flush=True)
    ray.shutdown()

    check_read_back(catalog, inputs, pk, "ray+pypaimon")


if __name__ == "__main__":
    main(sys.argv)
