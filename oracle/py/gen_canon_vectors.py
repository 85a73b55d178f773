#!/usr/bin/env python3
"""Writes internal/canon/testdata/vectors.jsonl: canonical-form test vectors shared by Go, Java and Python.

Each line: {"kind": double|float|decimal|date|time|timestamp|string|bytes, <raw input>, "want": fragment}.
"want" is computed by canon.py; for doubles/floats that is Python's repr(), the definition of the form.
Deterministic (fixed seed): rerun only when the form changes.  Usage: gen_canon_vectors.py [OUT]
"""

import json
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import canon  # noqa: E402


def dbits(f):
    return struct.pack(">d", f).hex()


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "canon", "testdata", "vectors.jsonl")
    rnd = random.Random(20260101)
    vs = []

    def dbl(f):
        vs.append({"kind": "double", "bits": dbits(f), "want": canon.float_json(f)})

    def flt(bits):
        f = struct.unpack(">f", struct.pack(">I", bits))[0]
        vs.append({"kind": "float", "bits": "%08x" % bits, "want": canon.float_json(f)})

    edges = [0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 100.0, 1e15, 1e16, 1e17, 9999999999999998.0,
             1234567890123456.0, 12345678901234567.0, 1e-4, 1e-5, 0.00011, 0.000099, 5e-324, 1e-323,
             2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308, 2.0 ** 53, 2.0 ** 53 + 2,
             1e21, 1e22, 1e23, 2e-3, 300.000000001, 11.1, 14.1, 17.1, 123456789012345678.0, 0.5, 1.5, 2.5,
             float("nan"), float("inf"), float("-inf"), 4.35, 0.1 + 0.2, 9007199254740993.0, 5e-310, 1e100, 1e-100]
    for f in edges:
        dbl(f)
        dbl(-f)
    for e in range(-1074, 1024, 3):  # powers of two: asymmetric rounding intervals
        dbl(math.ldexp(1.0, e))
    for k in range(-20, 21):  # around the fixed/exponent switch points
        for m in (1.0, 9.999999999999998, 1.2345):
            dbl(m * 10.0 ** k)
    for _ in range(800):  # random bit patterns (finite)
        while True:
            f = struct.unpack(">d", rnd.getrandbits(64).to_bytes(8, "big"))[0]
            if math.isfinite(f):
                break
        dbl(f)
    for _ in range(300):  # short decimal literals, the common case in tables
        dbl(round(rnd.uniform(-1e6, 1e6), rnd.randint(0, 9)))

    for bits in (0, 0x80000000, 0x3f800000, 0x40466666, 0x7f7fffff, 0x00000001, 0x7fc00000, 0x7f800000, 0xff800000,
                 0x40a3d70a, 0x3dcccccd):
        flt(bits)
    for _ in range(300):
        b = rnd.getrandbits(32)
        if (b >> 23) & 0xff != 0xff:
            flt(b)

    for unscaled, scale in [(0, 0), (0, 2), (5, 2), (-5, 2), (12345, 2), (-12345, 0), (1, 38), (-1, 38),
                            (10 ** 38 - 1, 0), (-(10 ** 38 - 1), 10), (100, 2), (7, 1)]:
        vs.append({"kind": "decimal", "unscaled": str(unscaled), "scale": scale,
                   "want": canon.quote(canon.decimal_text(unscaled, scale))})
    for _ in range(100):
        u = rnd.randint(-10 ** rnd.randint(1, 38), 10 ** rnd.randint(1, 38))
        s = rnd.randint(0, 38)
        vs.append({"kind": "decimal", "unscaled": str(u), "scale": s, "want": canon.quote(canon.decimal_text(u, s))})

    for d in [0, -1, 1, 59, 365, -719528, -719529, -719162, 2932896, 2932897, 11016, -25567, -1000000, 3000000] + \
            [rnd.randint(-1000000, 3000000) for _ in range(100)]:
        vs.append({"kind": "date", "days": d, "want": canon.quote(canon.date_text(d))})

    for t in [0, 1, 999, 1000, 59999, 3600000, 86399999, 43200123] + [rnd.randint(0, 86399999) for _ in range(50)]:
        vs.append({"kind": "time", "millis": t, "want": canon.quote(canon.time_text(t))})

    ts = [(0, 0), (-1, 999999), (-1, 0), (1, 1), (71000, 0), (1700000000123, 456789), (-62167219200000, 0),
          (-62167219200001, 0), (253402300799999, 999999), (253402300800000, 0), (-86400000, 5)]
    ts += [(rnd.randint(-300000000000000, 300000000000000), rnd.randint(0, 999999)) for _ in range(150)]
    for m, n in ts:
        vs.append({"kind": "timestamp", "millis": m, "nanos": n, "want": canon.quote(canon.timestamp_text(m, n))})

    strings = ["", "a", "Alice", 'say "hi"', "back\\slash", "tab\there", "nl\nx", "cr\r", "\b\f", "\x7f",
               "\u2028\u2029", "é", "日本語", "😀 emoji", "<&>", "/"] + [chr(c) for c in range(0x20)]
    for s in strings:
        vs.append({"kind": "string", "hex": s.encode("utf-8").hex(), "want": canon.quote(s)})
    for _ in range(50):
        s = "".join(chr(rnd.choice([rnd.randint(0x20, 0x7e), rnd.randint(0, 0x1f), rnd.randint(0xa0, 0xd7ff),
                                    rnd.randint(0x10000, 0x10ffff)])) for _ in range(rnd.randint(1, 12)))
        vs.append({"kind": "string", "hex": s.encode("utf-8").hex(), "want": canon.quote(s)})

    for b in [b"", b"\x00", b"\xff\x10", b"a31"] + [rnd.randbytes(rnd.randint(1, 20)) for _ in range(30)]:
        vs.append({"kind": "bytes", "hex": b.hex(), "want": canon.quote(b.hex())})

    with open(out_path, "w", encoding="utf-8") as fh:
        for v in vs:
            fh.write(json.dumps(v, ensure_ascii=False, separators=(",", ":")) + "\n")
    print("wrote %d vectors to %s" % (len(vs), out_path))


if __name__ == "__main__":
    main()
