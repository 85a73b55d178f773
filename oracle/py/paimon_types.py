"""Paimon SQL type strings -> pypaimon schema objects, for the oracle's `write` command.

Grammar (case-insensitive): BOOLEAN | TINYINT | SMALLINT | INT | INTEGER | BIGINT | FLOAT | DOUBLE |
DECIMAL[(p[,s])] | CHAR[(n)] | VARCHAR[(n)] | STRING | BINARY[(n)] | VARBINARY[(n)] | BYTES | DATE |
TIME[(p)] | TIMESTAMP[(p)] [WITH LOCAL TIME ZONE] | TIMESTAMP_LTZ[(p)] | ARRAY<T> | MULTISET<T> |
MAP<K, V> | ROW<name T, ...>, each optionally followed by NOT NULL / NULL. Type names are emitted in
the spelling Java Paimon writes into schema files ("DECIMAL(10, 2)", "TIMESTAMP(6) WITH LOCAL TIME ZONE").
"""

import re

from pypaimon import Schema
from pypaimon.schema.data_types import (ArrayType, AtomicInteger, AtomicType, DataField, DataTypeParser,
                                        MapType, MultisetType, RowType)

_TOKEN = re.compile(r"\s*(<|>|\(|\)|,|[A-Za-z_][A-Za-z_0-9]*|\d+|`[^`]*`|\"[^\"]*\")")


def _tokens(s):
    pos, out = 0, []
    s = s.rstrip()
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m:
            raise ValueError("bad type string %r at %d" % (s, pos))
        out.append(m.group(1))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text, ids):
        self.toks = _tokens(text)
        self.i = 0
        self.text = text
        self.ids = ids  # AtomicInteger for nested ROW field ids

    def peek(self, k=0):
        return self.toks[self.i + k].upper() if self.i + k < len(self.toks) else None

    def take(self, want=None):
        if self.i >= len(self.toks):
            raise ValueError("unexpected end of type %r" % self.text)
        t = self.toks[self.i]
        if want is not None and t.upper() != want:
            raise ValueError("expected %s in type %r, got %s" % (want, self.text, t))
        self.i += 1
        return t

    def params(self):
        ps = []
        if self.peek() == "(":
            self.take("(")
            ps.append(int(self.take()))
            while self.peek() == ",":
                self.take(",")
                ps.append(int(self.take()))
            self.take(")")
        return ps

    def nullability(self):
        if self.peek() == "NOT" and self.peek(1) == "NULL":
            self.take()
            self.take()
            return False
        if self.peek() == "NULL":
            self.take()
        return True

    def parse(self):
        name = self.take().upper()
        if name in ("ARRAY", "MULTISET"):
            self.take("<")
            elem = self.parse()
            self.take(">")
            nullable = self.nullability()
            return ArrayType(nullable, elem) if name == "ARRAY" else MultisetType(nullable, elem)
        if name == "MAP":
            self.take("<")
            k = self.parse()
            self.take(",")
            v = self.parse()
            self.take(">")
            return MapType(self.nullability(), k, v)
        if name == "ROW":
            close = ">" if self.peek() == "<" else ")"
            self.take("<" if close == ">" else "(")
            fields = []
            while True:
                fname = self.take().strip('`"')
                ftype = self.parse()
                fields.append(DataField(self.ids.increment_and_get(), fname, ftype))
                if self.peek() == ",":
                    self.take(",")
                    continue
                break
            self.take(close)
            return RowType(self.nullability(), fields)
        ps = self.params()
        if name == "INTEGER":
            name = "INT"
        if name == "DECIMAL":
            p, s = (ps[0], ps[1]) if len(ps) >= 2 else ((ps[0], 0) if ps else (10, 0))
            text = "DECIMAL(%d, %d)" % (p, s)
        elif name == "TIMESTAMP_LTZ" or (name == "TIMESTAMP" and self.peek() == "WITH"):
            if name == "TIMESTAMP":
                for w in ("WITH", "LOCAL", "TIME", "ZONE"):
                    self.take(w)
            text = "TIMESTAMP(%d) WITH LOCAL TIME ZONE" % (ps[0] if ps else 6)
        elif name == "TIMESTAMP":
            text = "TIMESTAMP(%d)" % (ps[0] if ps else 6)
        elif name == "TIME":
            text = "TIME(%d)" % (ps[0] if ps else 0)
        elif name in ("CHAR", "BINARY", "VARCHAR", "VARBINARY"):
            text = "%s(%d)" % (name, ps[0] if ps else 1)
        elif name in ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "STRING", "BYTES",
                      "DATE"):
            if ps:
                raise ValueError("%s takes no parameters in %r" % (name, self.text))
            text = name
        else:
            raise ValueError("unknown type %s in %r" % (name, self.text))
        return AtomicType(text, self.nullability())


def parse_type(text, ids):
    """pypaimon DataType of a Paimon SQL type string; nested ROW fields take ids from `ids`."""
    p = _Parser(text, ids)
    t = p.parse()
    if p.i != len(p.toks):
        raise ValueError("trailing text in type %r" % text)
    return t


def schema_from_spec(spec):
    """pypaimon Schema from {"columns":[{"name","type"}], "primaryKeys", "partitionKeys", "options", "comment"}."""
    cols = spec["columns"]
    ids = AtomicInteger(len(cols) - 1)
    fields = []
    for i, c in enumerate(cols):
        t = c["type"]
        dt = parse_type(t, ids) if isinstance(t, str) else DataTypeParser.parse_data_type(t, ids)
        fields.append(DataField(i, c["name"], dt, c.get("description")))
    return Schema(fields=fields, partition_keys=spec.get("partitionKeys") or [],
                  primary_keys=spec.get("primaryKeys") or [],
                  options={k: str(v) for k, v in (spec.get("options") or {}).items()}, comment=spec.get("comment"))
