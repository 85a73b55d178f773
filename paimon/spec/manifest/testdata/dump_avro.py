"""Reads Avro container files with fastavro (the reader pypaimon uses) and prints them as JSON.

Checks on the writer schema: every union is ["null", T] with "default": null (Java's reader takes
branch 0 as null). Output: a JSON list, one {"codec", "records"} object per file; bytes are
{"hex": ...} and timestamp-millis values are {"millis": ...}.
"""
import datetime
import json
import sys

import fastavro

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def conv(v):
    if isinstance(v, bytes):
        return {"hex": v.hex()}
    if isinstance(v, datetime.datetime):
        return {"millis": (v - EPOCH) // datetime.timedelta(milliseconds=1)}
    if isinstance(v, dict):
        return {k: conv(x) for k, x in v.items()}
    if isinstance(v, list):
        return [conv(x) for x in v]
    return v


def check_type(t, where):
    if isinstance(t, list):
        assert len(t) == 2 and t[0] == "null", f"{where}: union {t} must be [null, T]"
        t = t[1]
    if isinstance(t, dict):
        if t.get("type") == "record":
            check_fields(t["fields"], where)
        elif t.get("type") == "array":
            check_type(t["items"], where + "[]")


def check_fields(fields, where):
    for f in fields:
        name = f"{where}.{f['name']}"
        if isinstance(f["type"], list):
            assert "default" in f and f["default"] is None, f"{name}: nullable field needs default null"
        check_type(f["type"], name)


out = []
for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        reader = fastavro.reader(fh)
        schema = json.loads(reader.metadata["avro.schema"])
        check_fields(schema["fields"], path)
        out.append({"codec": reader.codec, "records": [conv(r) for r in reader]})
json.dump(out, sys.stdout)
