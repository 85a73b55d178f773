#!/usr/bin/env python3
"""Reads a table through a Paimon REST catalog with pypaimon's REST client, for lakeload's REST tests.

  rest_read.py --uri URL --token T --warehouse W --table DB.TABLE [--filter JSON]

Prints the canonical rows of the table's latest snapshot (paimon_oracle's read), one per line, sorted.
Catalog options as pypaimon's REST client takes them: metastore=rest, uri, token.provider=bear, token, warehouse.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paimon_oracle  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="rest_read")
    p.add_argument("--uri", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--warehouse", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--filter")
    a = p.parse_args(argv)
    from pypaimon import CatalogFactory
    cat = CatalogFactory.create({"metastore": "rest", "uri": a.uri, "token.provider": "bear",
                                 "token": a.token, "warehouse": a.warehouse})
    paimon_oracle.open_table = cat.get_table  # read() opens req["table"] through it
    req = {"table": a.table}
    if a.filter:
        req["filter"] = json.loads(a.filter)
    for line in paimon_oracle.read(req):
        print(line)


if __name__ == "__main__":
    main()
