#!/usr/bin/env python3
"""Scan peer of lakeload's bench: pypaimon reads a whole table into Arrow.

Usage: pypaimon_scan.py WAREHOUSE DB.TABLE RUNS

RUNS times in this process: plan the scan and read every split with to_arrow. Prints one JSON line per run,
{"run", "rows", "id_sum", "elapsed", "cpu"} (seconds of plan + read; process CPU seconds, all threads; id_sum,
the sum of column id, is computed after the timed span and lets the runner check the rows lakeload read).
"""
import json
import sys
import time

import pyarrow.compute as pc

from pypaimon import CatalogFactory


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: pypaimon_scan.py WAREHOUSE DB.TABLE RUNS")
    warehouse, ident, runs = argv[1], argv[2], int(argv[3])
    for run in range(runs):
        start, cpu0 = time.perf_counter(), time.process_time()
        table = CatalogFactory.create({"warehouse": warehouse}).get_table(ident)
        rb = table.new_read_builder()
        data = rb.new_read().to_arrow(rb.new_scan().plan().splits())
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
        id_sum = pc.sum(data.column("id")).as_py() or 0
        print(json.dumps({"run": run, "rows": data.num_rows, "id_sum": id_sum, "elapsed": elapsed,
                          "cpu": cpu}), flush=True)


if __name__ == "__main__":
    main(sys.argv)
