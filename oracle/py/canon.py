"""Canonical JSON row form of oracle/README.md, computed from pyarrow data.

Must stay byte-identical to internal/canon (Go) and oracle/java Canon.java; the shared vectors in
internal/canon/testdata/vectors.jsonl check all three. Temporal values are taken from the raw
integers of the arrow arrays (never through datetime), so nanoseconds and years outside 1..9999 work.
"""

import json
import math
from decimal import Decimal

import pyarrow as pa


def quote(s):
    """JSON string with minimal escaping (matches json.dumps(ensure_ascii=False))."""
    return json.dumps(s, ensure_ascii=False)


def float_json(f):
    """Python repr() of the float widened to float64; NaN/Infinity as quoted names."""
    f = float(f)
    if math.isnan(f):
        return '"NaN"'
    if math.isinf(f):
        return '"Infinity"' if f > 0 else '"-Infinity"'
    return repr(f)


def decimal_text(unscaled, scale):
    """Plain text of unscaled * 10**-scale with exactly `scale` fraction digits."""
    sign = "-" if unscaled < 0 else ""
    digits = str(abs(unscaled))
    if scale <= 0:
        return sign + digits + "0" * (-scale)
    if len(digits) <= scale:
        digits = "0" * (scale - len(digits) + 1) + digits
    cut = len(digits) - scale
    return sign + digits[:cut] + "." + digits[cut:]


def _civil_from_days(z):
    """Proleptic Gregorian (year, month, day) of days since 1970-01-01 (H. Hinnant's algorithm)."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + 1 if m <= 2 else y), m, d


def _year(y):
    if y > 9999:
        return "+%d" % y
    if y < 0:
        return "-%04d" % -y
    return "%04d" % y


def date_text(days):
    y, m, d = _civil_from_days(days)
    return "%s-%02d-%02d" % (_year(y), m, d)


def time_text(millis):
    neg = ""
    if millis < 0:
        neg, millis = "-", -millis
    return "%s%02d:%02d:%02d.%03d" % (neg, millis // 3600000, millis // 60000 % 60, millis // 1000 % 60,
                                     millis % 1000)


def timestamp_text(millis, nano_of_milli):
    days, ms = divmod(millis, 86400000)
    y, mo, d = _civil_from_days(days)
    return "%s-%02d-%02dT%02d:%02d:%02d.%09d" % (_year(y), mo, d, ms // 3600000, ms // 60000 % 60,
                                                ms // 1000 % 60, (ms % 1000) * 1000000 + nano_of_milli)


_TS_DIV = {"s": None, "ms": 1, "us": 1000, "ns": 1000000}


def _ts_parts(v, unit):
    """(millis, nano_of_milli) of a raw timestamp integer in the given arrow unit."""
    if unit == "s":
        return v * 1000, 0
    div = _TS_DIV[unit]
    millis, rem = divmod(v, div)
    return millis, rem * (1000000 // div)


def _time_millis(v, unit):
    return {"s": lambda x: x * 1000, "ms": lambda x: x, "us": lambda x: x // 1000,
            "ns": lambda x: x // 1000000}[unit](v)


def _unscaled(d, scale):
    sign, digits, exp = d.as_tuple()
    n = int("".join(map(str, digits)) or "0")
    shift = exp + scale
    n = n * 10 ** shift if shift >= 0 else n // 10 ** (-shift)
    return -n if sign else n


def column(arr):
    """Canonical JSON fragments (str) of every element of an arrow Array or ChunkedArray."""
    if isinstance(arr, pa.ChunkedArray):
        out = []
        for c in arr.chunks:
            out.extend(column(c))
        return out
    t = arr.type
    valid = arr.is_valid().to_pylist() if arr.null_count else [True] * len(arr)
    if pa.types.is_null(t):
        return ["null"] * len(arr)
    if pa.types.is_boolean(t):
        vals = iter("true" if v else "false" for v in arr.to_pylist() if v is not None)
    elif pa.types.is_integer(t):
        vals = iter(str(v) for v in arr.to_pylist() if v is not None)
    elif pa.types.is_floating(t):
        vals = iter(float_json(v) for v in arr.to_pylist() if v is not None)
    elif pa.types.is_decimal(t):
        vals = iter(quote(decimal_text(_unscaled(v, t.scale), t.scale)) for v in arr.to_pylist() if v is not None)
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        vals = iter(quote(v) for v in arr.to_pylist() if v is not None)
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        vals = iter(quote(v.hex()) for v in arr.to_pylist() if v is not None)
    elif pa.types.is_date32(t):
        vals = iter(quote(date_text(v)) for v in arr.cast(pa.int32()).to_pylist() if v is not None)
    elif pa.types.is_date64(t):
        vals = iter(quote(date_text(v // 86400000)) for v in arr.cast(pa.int64()).to_pylist() if v is not None)
    elif pa.types.is_time(t):
        raw = arr.cast(pa.int32() if pa.types.is_time32(t) else pa.int64()).to_pylist()
        vals = iter(quote(time_text(_time_millis(v, t.unit))) for v in raw if v is not None)
    elif pa.types.is_timestamp(t):
        raw = arr.cast(pa.int64()).to_pylist()
        vals = iter(quote(timestamp_text(*_ts_parts(v, t.unit))) for v in raw if v is not None)
    elif pa.types.is_map(t):
        # offsets are absolute positions in the (unsliced) entries child
        entries = arr.values
        keys, items = column(entries.field(0)), column(entries.field(1))
        offs = arr.offsets.to_pylist()

        def maps():
            for i in range(len(arr)):
                if valid[i]:
                    pairs = sorted(zip(keys[offs[i]:offs[i + 1]], items[offs[i]:offs[i + 1]]),
                                   key=lambda p: p[0].encode("utf-8"))
                    yield "[" + ",".join("[%s,%s]" % p for p in pairs) + "]"
        vals = maps()
    elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        # .values ignores slicing; offsets are absolute positions in it
        values = column(arr.values)
        if pa.types.is_fixed_size_list(t):
            offs = [(arr.offset + i) * t.list_size for i in range(len(arr) + 1)]
        else:
            offs = arr.offsets.to_pylist()

        def lists():
            for i in range(len(arr)):
                if valid[i]:
                    yield "[" + ",".join(values[offs[i]:offs[i + 1]]) + "]"
        vals = lists()
    elif pa.types.is_struct(t):
        children = arr.flatten()
        names = [t.field(k).name for k in range(t.num_fields)]
        cols = [column(c) for c in children]
        order = sorted(range(len(names)), key=lambda k: names[k].encode("utf-8"))

        def structs():
            for i in range(len(arr)):
                if valid[i]:
                    yield "{" + ",".join("%s:%s" % (quote(names[k]), cols[k][i]) for k in order) + "}"
        vals = structs()
    else:
        raise ValueError("canonical form has no rule for arrow type %s" % t)
    out = []
    for ok in valid:
        out.append(next(vals) if ok else "null")
    return out


def table_lines(table, columns=None):
    """Canonical lines of an arrow Table (optionally only `columns`), sorted bytewise."""
    names = list(columns) if columns is not None else table.column_names
    cols = {n: column(table.column(n)) for n in names}
    order = sorted(names, key=lambda n: n.encode("utf-8"))
    keys = [quote(n) for n in order]
    lines = []
    for i in range(table.num_rows):
        lines.append("{" + ",".join("%s:%s" % (keys[k], cols[n][i]) for k, n in enumerate(order)) + "}")
    lines.sort(key=lambda s: s.encode("utf-8"))
    return lines


# --- canonical text -> python values accepted by pyarrow (for writes and filter literals) ---

def parse_date(s):
    """Days since epoch of YYYY-MM-DD (optionally signed, >4-digit year)."""
    sign = 1
    if s[0] in "+-":
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    y, m, d = s.split("-")
    return _days_from_civil(sign * int(y), int(m), int(d))


def _days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_time(s):
    """Millis of day of HH:MM:SS[.fff]."""
    hms, _, frac = s.partition(".")
    h, mi, se = (int(x) for x in hms.split(":"))
    return ((h * 60 + mi) * 60 + se) * 1000 + int((frac + "000")[:3] or 0)


def parse_timestamp_nanos(s):
    """Nanos since epoch of YYYY-MM-DDTHH:MM:SS[.fffffffff] (wall clock as UTC)."""
    date, _, tm = s.replace(" ", "T").partition("T")
    days = parse_date(date)
    hms, _, frac = tm.partition(".")
    h, mi, se = (int(x) for x in hms.split(":"))
    nanos = int((frac + "000000000")[:9])
    return ((days * 86400 + (h * 60 + mi) * 60 + se) * 1000000000) + nanos


def from_canonical(v, t):
    """Python value for pyarrow type t from a parsed canonical JSON value v."""
    if v is None:
        return None
    if pa.types.is_boolean(t) or pa.types.is_integer(t):
        return v
    if pa.types.is_floating(t):
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(v, v)) if isinstance(v, str) else float(v)
    if pa.types.is_decimal(t):
        return Decimal(v)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return v
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return bytes.fromhex(v)
    if pa.types.is_date32(t):
        return parse_date(v)
    if pa.types.is_time(t):
        ms = parse_time(v)
        return {"s": ms // 1000, "ms": ms, "us": ms * 1000, "ns": ms * 1000000}[t.unit]
    if pa.types.is_timestamp(t):
        ns = parse_timestamp_nanos(v)
        return {"s": ns // 10 ** 9, "ms": ns // 10 ** 6, "us": ns // 1000, "ns": ns}[t.unit]
    if pa.types.is_map(t):
        return [(from_canonical(k, t.key_type), from_canonical(x, t.item_type)) for k, x in v]
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return [from_canonical(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {t.field(k).name: from_canonical(v.get(t.field(k).name), t.field(k).type) for k in range(t.num_fields)}
    raise ValueError("no canonical parse rule for arrow type %s" % t)
