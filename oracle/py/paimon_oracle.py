#!/usr/bin/env python3
"""pypaimon oracle for lakeload tests: reads Paimon tables into canonical JSON rows and writes tables.

Commands (see oracle/README.md for the canonical form and the request JSON):
  read --table PATH [--snapshot N] [--filter JSON] [--projection a,b] [--option k=v]...
  snapshots --table PATH
  write --table PATH --spec JSON [--rows FILE|-] [--commit-user U --commit-identifier N]
        [--overwrite [PARTITION_JSON]] [--property k=v]...
  batch                 one JSON request per stdin line, one JSON reply per stdout line
  selftest VECTORS      check canon.py against internal/canon/testdata/vectors.jsonl

A table is opened through a filesystem catalog on PATH/../.. with database = basename(PATH/..)
minus ".db" (FileStoreTable.from_path is used only when PATH's parent is not a "*.db" folder).
"""

import argparse
import json
import os
import sys
import traceback

import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import canon  # noqa: E402
import paimon_types  # noqa: E402

_catalogs = {}


def _locate(path):
    path = os.path.abspath(path.removeprefix("file://"))
    db_dir = os.path.dirname(path)
    return os.path.dirname(db_dir), os.path.basename(db_dir), os.path.basename(path)


def _catalog(warehouse):
    from pypaimon import CatalogFactory
    c = _catalogs.get(warehouse)
    if c is None:
        c = CatalogFactory.create({"warehouse": warehouse})
        _catalogs[warehouse] = c
    return c


def open_table(path):
    warehouse, db_dir, name = _locate(path)
    if not db_dir.endswith(".db"):
        from pypaimon.table.file_store_table import FileStoreTable
        return FileStoreTable.from_path(os.path.abspath(path))
    return _catalog(warehouse).get_table("%s.%s" % (db_dir[:-3], name))


# --- filters ---------------------------------------------------------------------------------

_CMP = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}
_PUSH = {"eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_or_equal", "gt": "greater_than",
         "ge": "greater_or_equal"}


def _arrow_scalar(v, t):
    return pa.scalar(canon.from_canonical(v, t), type=t)


def arrow_filter(f, schema):
    """Exact row filter as a pyarrow compute expression (SQL semantics: NULL never matches)."""
    op = f["op"]
    if op in ("and", "or"):
        args = [arrow_filter(a, schema) for a in f["args"]]
        if not args:
            raise ValueError("'%s' needs at least one arg" % op)
        e = args[0]
        for a in args[1:]:
            e = (e & a) if op == "and" else (e | a)
        return e
    name = f["field"]
    if name not in schema.names:
        raise ValueError("filter field '%s' is not a column of %s" % (name, schema.names))
    t = schema.field(name).type
    fld = pc.field(name)
    if op in _CMP:
        return getattr(fld, _CMP[op])(_arrow_scalar(f["value"], t))
    if op == "is_null":
        return fld.is_null()
    if op == "is_not_null":
        return fld.is_valid()
    if op == "in":
        return fld.isin(pa.array([canon.from_canonical(v, t) for v in f["values"]], type=t))
    raise ValueError("unknown filter op '%s'" % op)


def _pushable(t):
    return pa.types.is_integer(t) or pa.types.is_string(t) or pa.types.is_boolean(t) or pa.types.is_floating(t)


def paimon_predicate(f, table, schema):
    """pypaimon Predicate for pushdown (pruning only), or None where a literal type is not pushed."""
    pb = table.new_read_builder().new_predicate_builder()
    op = f["op"]
    if op in ("and", "or"):
        args = [paimon_predicate(a, table, schema) for a in f["args"]]
        if op == "or" and any(a is None for a in args):
            return None
        args = [a for a in args if a is not None]
        if not args:
            return None
        if len(args) == 1:
            return args[0]
        return pb.and_predicates(args) if op == "and" else pb.or_predicates(args)
    t = schema.field(f["field"]).type
    if op == "is_null":
        return pb.is_null(f["field"])
    if op == "is_not_null":
        return pb.is_not_null(f["field"])
    if not _pushable(t):
        return None
    if op in _PUSH:
        return getattr(pb, _PUSH[op])(f["field"], canon.from_canonical(f["value"], t))
    if op == "in":
        return pb.is_in(f["field"], [canon.from_canonical(v, t) for v in f["values"]])
    return None


# --- commands --------------------------------------------------------------------------------

def read(req):
    """Canonical sorted lines of the table (at req["snapshot"]), filter applied exactly."""
    table = open_table(req["table"])
    opts = {k: str(v) for k, v in (req.get("options") or {}).items()}
    if req.get("snapshot") is not None:
        opts["scan.snapshot-id"] = str(req["snapshot"])
    if opts:
        table = table.copy(opts)
    rb = table.new_read_builder()
    filt = req.get("filter")
    if filt is not None:
        from pypaimon.schema.data_types import PyarrowFieldParser
        schema = PyarrowFieldParser.from_paimon_schema(table.fields)
        pred = paimon_predicate(filt, table, schema) if req.get("pushdown", True) else None
        if pred is not None:
            rb = rb.with_filter(pred)
    data = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    if data is None:
        from pypaimon.schema.data_types import PyarrowFieldParser
        data = PyarrowFieldParser.from_paimon_schema(table.fields).empty_table()
    if filt is not None:
        data = data.filter(arrow_filter(filt, data.schema))
    proj = req.get("projection")
    for p in proj or []:
        if p not in data.column_names:
            raise ValueError("projection column '%s' is not in %s" % (p, data.column_names))
    return canon.table_lines(data, proj)


def snapshots(req):
    table = open_table(req["table"])
    out = []
    for s in table.snapshot_manager().list_snapshots():
        kind = s.commit_kind if isinstance(s.commit_kind, str) else getattr(s.commit_kind, "name", str(s.commit_kind))
        props = s.properties
        out.append({
            "commitIdentifier": s.commit_identifier, "commitKind": kind, "commitUser": s.commit_user,
            "deltaRecordCount": s.delta_record_count, "id": s.id,
            "properties": None if props is None else {str(k): str(v) for k, v in props.items()},
            "schemaId": s.schema_id, "totalRecordCount": s.total_record_count,
        })
    out.sort(key=lambda s: s["id"])
    return out


def snapshot_json(s):
    return json.dumps(s, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def write(req):
    """Creates the table from req["spec"] if absent, writes req["rows"] (canonical lines or objects), commits once.

    Returns {"snapshot": latest snapshot id after the commit}.
    """
    from pypaimon.schema.data_types import PyarrowFieldParser
    path = req["table"]
    warehouse, db_dir, name = _locate(path)
    if not db_dir.endswith(".db"):
        raise ValueError("write needs a table path of the form WAREHOUSE/DB.db/TABLE, got %s" % path)
    cat = _catalog(warehouse)
    cat.create_database(db_dir[:-3], True)
    ident = "%s.%s" % (db_dir[:-3], name)
    if not os.path.isdir(os.path.join(os.path.abspath(path), "schema")):
        spec = req.get("spec")
        if spec is None:
            raise ValueError("table %s does not exist and the request has no spec" % path)
        cat.create_table(ident, paimon_types.schema_from_spec(spec), True)
    table = cat.get_table(ident)
    schema = PyarrowFieldParser.from_paimon_schema(table.fields)
    rows = [json.loads(r) if isinstance(r, str) else r for r in req.get("rows") or []]
    kind_col = table.options.options.to_map().get("rowkind.field")
    for r in rows:
        if "_kind" in r:
            if kind_col is None:
                raise ValueError("rows carry _kind but the table has no 'rowkind.field' option naming a STRING column")
            r[kind_col] = r.pop("_kind")
        unknown = set(r) - set(schema.names)
        if unknown:
            raise ValueError("row has columns not in the table: %s" % sorted(unknown))
    arrays = [pa.array([canon.from_canonical(r.get(f.name), f.type) for r in rows], type=f.type) for f in schema]
    data = pa.Table.from_arrays(arrays, schema=schema)

    props = req.get("properties")
    if req.get("commitUser") is not None or req.get("commitIdentifier") is not None:
        wb = table.new_stream_write_builder()
        if req.get("commitUser") is not None:
            wb.commit_user = req["commitUser"]
        ident_no = int(req.get("commitIdentifier", 0))
        w, c = wb.new_write(), wb.new_commit()
        try:
            w.write_arrow(data)
            c.commit(w.prepare_commit(ident_no), ident_no, snapshot_properties=props)
        finally:
            w.close()
            c.close()
    else:
        wb = table.new_batch_write_builder()
        if req.get("overwrite") is not None and req.get("overwrite") is not False:
            ow = req["overwrite"]
            wb = wb.overwrite(ow if isinstance(ow, dict) else None)
        w, c = wb.new_write(), wb.new_commit()
        try:
            w.write_arrow(data)
            c.commit(w.prepare_commit(), snapshot_properties=props)
        finally:
            w.close()
            c.close()
    latest = table.snapshot_manager().get_latest_snapshot()
    return {"snapshot": None if latest is None else latest.id}


# --- selftest --------------------------------------------------------------------------------

def vector(v):
    import struct
    k = v["kind"]
    if k == "double":
        return canon.float_json(struct.unpack(">d", bytes.fromhex(v["bits"]))[0])
    if k == "float":
        return canon.float_json(struct.unpack(">f", bytes.fromhex(v["bits"]))[0])
    if k == "decimal":
        return canon.quote(canon.decimal_text(int(v["unscaled"]), v["scale"]))
    if k == "date":
        return canon.quote(canon.date_text(v["days"]))
    if k == "time":
        return canon.quote(canon.time_text(v["millis"]))
    if k == "timestamp":
        return canon.quote(canon.timestamp_text(v["millis"], v["nanos"]))
    if k == "string":
        return canon.quote(bytes.fromhex(v["hex"]).decode("utf-8", errors="replace"))
    if k == "bytes":
        return canon.quote(v["hex"].lower())
    raise ValueError("unknown vector kind %s" % k)


def selftest(path):
    passed, failed = 0, []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            v = json.loads(line)
            try:
                got = vector(v)
            except Exception as e:  # report, do not stop
                got = "error: %r" % e
            if got == v["want"]:
                passed += 1
            else:
                failed.append("%s => %s" % (line.strip(), got))
    return {"failed": failed, "passed": passed}


# --- entry points ----------------------------------------------------------------------------

def handle(req):
    cmd = req.get("cmd")
    if cmd == "read":
        return {"rows": read(req)}
    if cmd == "snapshots":
        return {"snapshots": snapshots(req)}
    if cmd == "write":
        return write(req)
    if cmd == "ping":
        import importlib.metadata
        import pypaimon  # noqa: F401  fail the ping, not a later read, when pypaimon is missing
        return {"rows": [], "version": importlib.metadata.version("pypaimon")}
    if cmd == "selftest":
        return selftest(req["vectors"])
    raise ValueError("unknown cmd '%s'" % cmd)


def batch(out):
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            reply = handle(req)
        except Exception as e:  # every failure becomes an error reply
            traceback.print_exc(file=sys.stderr)
            reply = {"error": "%s: %s" % (type(e).__name__, e)}
        if rid is not None:
            reply["id"] = rid
        out.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()


def _kv(items):
    out = {}
    for it in items or []:
        k, sep, v = it.partition("=")
        if not sep:
            raise SystemExit("expected k=v, got %r" % it)
        out[k] = v
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="paimon_oracle")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read")
    r.add_argument("--table", required=True)
    r.add_argument("--snapshot", type=int)
    r.add_argument("--filter")
    r.add_argument("--projection")
    r.add_argument("--option", action="append")
    s = sub.add_parser("snapshots")
    s.add_argument("--table", required=True)
    w = sub.add_parser("write")
    w.add_argument("--table", required=True)
    w.add_argument("--spec")
    w.add_argument("--rows", default="-")
    w.add_argument("--commit-user")
    w.add_argument("--commit-identifier", type=int)
    w.add_argument("--overwrite", nargs="?", const="{}")
    w.add_argument("--property", action="append")
    sub.add_parser("batch")
    t = sub.add_parser("selftest")
    t.add_argument("vectors")
    a = p.parse_args(argv)

    # Library output must never corrupt the protocol on stdout.
    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        if a.cmd == "read":
            req = {"table": a.table, "snapshot": a.snapshot, "options": _kv(a.option),
                   "filter": json.loads(a.filter) if a.filter else None,
                   "projection": a.projection.split(",") if a.projection else None}
            for line in read(req):
                out.write(line + "\n")
        elif a.cmd == "snapshots":
            for snap in snapshots({"table": a.table}):
                out.write(snapshot_json(snap) + "\n")
        elif a.cmd == "write":
            src = sys.stdin if a.rows == "-" else open(a.rows, encoding="utf-8")
            req = {"table": a.table, "spec": json.loads(a.spec) if a.spec else None,
                   "rows": [line for line in src if line.strip()], "commitUser": a.commit_user,
                   "commitIdentifier": a.commit_identifier, "properties": _kv(a.property) or None}
            if a.overwrite is not None:
                req["overwrite"] = json.loads(a.overwrite) or True
            out.write(json.dumps(write(req)) + "\n")
        elif a.cmd == "batch":
            batch(out)
        elif a.cmd == "selftest":
            res = selftest(a.vectors)
            out.write(json.dumps(res, separators=(",", ":"), sort_keys=True) + "\n")
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        sys.stderr.write("paimon_oracle: %s: %s\n" % (type(e).__name__, e))
        return 1
    finally:
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
