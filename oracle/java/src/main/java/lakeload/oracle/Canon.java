package lakeload.oracle;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;

/**
 * The canonical JSON form of oracle/README.md for Paimon internal values. Must stay byte-identical
 * to internal/canon (Go) and oracle/py/canon.py; shared vectors live in internal/canon/testdata.
 */
final class Canon {
    private Canon() {}

    /** Orders strings by Unicode code point, i.e. by their UTF-8 bytes. */
    static final Comparator<String> CODEPOINT_ORDER = (a, b) -> {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** Canonical line of a row restricted to the fields at positions pos of rowType. */
    static String row(RowType rowType, InternalRow row, int[] pos) {
        List<DataField> fields = rowType.getFields();
        Integer[] order = new Integer[pos.length];
        for (int k = 0; k < pos.length; k++) {
            order[k] = pos[k];
        }
        java.util.Arrays.sort(order, (x, y) -> CODEPOINT_ORDER.compare(fields.get(x).name(), fields.get(y).name()));
        StringBuilder b = new StringBuilder();
        b.append('{');
        for (int k = 0; k < order.length; k++) {
            if (k > 0) {
                b.append(',');
            }
            DataField f = fields.get(order[k]);
            Json.quote(b, f.name()).append(':');
            value(b, f.type(), InternalRow.createFieldGetter(f.type(), order[k]).getFieldOrNull(row));
        }
        return b.append('}').toString();
    }

    /** Appends the canonical fragment of an internal value of type t. */
    static void value(StringBuilder b, DataType t, Object v) {
        if (v == null) {
            b.append("null");
            return;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                b.append(((Boolean) v) ? "true" : "false");
                return;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                b.append(((Number) v).longValue());
                return;
            case FLOAT:
                b.append(floatJson((double) (Float) v));
                return;
            case DOUBLE:
                b.append(floatJson((Double) v));
                return;
            case DECIMAL: {
                int scale = ((DecimalType) t).getScale();
                BigDecimal d = ((Decimal) v).toBigDecimal().setScale(scale, RoundingMode.UNNECESSARY);
                Json.quote(b, decimal(d.unscaledValue(), scale));
                return;
            }
            case CHAR:
            case VARCHAR:
                Json.quote(b, ((BinaryString) v).toString());
                return;
            case BINARY:
            case VARBINARY:
                Json.quote(b, hex((byte[]) v));
                return;
            case DATE:
                Json.quote(b, date((Integer) v));
                return;
            case TIME_WITHOUT_TIME_ZONE:
                Json.quote(b, time((Integer) v));
                return;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                Timestamp ts = (Timestamp) v;
                Json.quote(b, timestamp(ts.getMillisecond(), ts.getNanoOfMillisecond()));
                return;
            }
            case ARRAY: {
                DataType et = ((ArrayType) t).getElementType();
                InternalArray a = (InternalArray) v;
                InternalArray.ElementGetter g = InternalArray.createElementGetter(et);
                b.append('[');
                for (int k = 0; k < a.size(); k++) {
                    if (k > 0) {
                        b.append(',');
                    }
                    value(b, et, g.getElementOrNull(a, k));
                }
                b.append(']');
                return;
            }
            case MULTISET: {
                DataType et = ((MultisetType) t).getElementType();
                InternalMap m = (InternalMap) v;
                InternalArray.ElementGetter g = InternalArray.createElementGetter(et);
                List<String> parts = new ArrayList<>();
                for (int k = 0; k < m.size(); k++) {
                    StringBuilder e = new StringBuilder();
                    value(e, et, g.getElementOrNull(m.keyArray(), k));
                    int n = m.valueArray().isNullAt(k) ? 0 : m.valueArray().getInt(k);
                    for (int c = 0; c < n; c++) {
                        parts.add(e.toString());
                    }
                }
                parts.sort(CODEPOINT_ORDER);
                b.append('[').append(String.join(",", parts)).append(']');
                return;
            }
            case MAP: {
                MapType mt = (MapType) t;
                InternalMap m = (InternalMap) v;
                InternalArray.ElementGetter kg = InternalArray.createElementGetter(mt.getKeyType());
                InternalArray.ElementGetter vg = InternalArray.createElementGetter(mt.getValueType());
                List<String[]> pairs = new ArrayList<>();
                for (int k = 0; k < m.size(); k++) {
                    StringBuilder ks = new StringBuilder();
                    StringBuilder vs = new StringBuilder();
                    value(ks, mt.getKeyType(), kg.getElementOrNull(m.keyArray(), k));
                    value(vs, mt.getValueType(), vg.getElementOrNull(m.valueArray(), k));
                    pairs.add(new String[] {ks.toString(), vs.toString()});
                }
                pairs.sort((x, y) -> CODEPOINT_ORDER.compare(x[0], y[0]));
                b.append('[');
                for (int k = 0; k < pairs.size(); k++) {
                    if (k > 0) {
                        b.append(',');
                    }
                    b.append('[').append(pairs.get(k)[0]).append(',').append(pairs.get(k)[1]).append(']');
                }
                b.append(']');
                return;
            }
            case ROW: {
                RowType rt = (RowType) t;
                int[] pos = new int[rt.getFieldCount()];
                for (int k = 0; k < pos.length; k++) {
                    pos[k] = k;
                }
                b.append(row(rt, (InternalRow) v, pos));
                return;
            }
            default:
                throw new IllegalArgumentException("canonical form has no rule for type " + t);
        }
    }

    /** Canonical JSON fragment of a double: Python repr() digits, or a quoted NaN/Infinity name. */
    static String floatJson(double d) {
        if (Double.isNaN(d)) {
            return "\"NaN\"";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        }
        return pyRepr(d);
    }

    /** Python's repr(float) for a finite double: shortest round-trip digits, Python's layout rules. */
    static String pyRepr(double d) {
        boolean neg = (Double.doubleToRawLongBits(d) & Long.MIN_VALUE) != 0;
        double a = Math.abs(d);
        String digits;
        int decpt;
        if (a == 0) {
            digits = "0";
            decpt = 1;
        } else {
            BigDecimal exact = new BigDecimal(a);
            BigDecimal best = null;
            for (int p = 1; p <= 17 && best == null; p++) {
                BigDecimal bestDist = null;
                for (RoundingMode m : new RoundingMode[] {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING}) {
                    BigDecimal c = exact.round(new MathContext(p, m));
                    if (Double.parseDouble(c.toString()) != a) {
                        continue;
                    }
                    BigDecimal dist = c.subtract(exact).abs();
                    if (best == null || dist.compareTo(bestDist) < 0) {
                        best = c;
                        bestDist = dist;
                    }
                }
            }
            best = best.stripTrailingZeros();
            digits = best.unscaledValue().toString();
            decpt = digits.length() - best.scale();
        }
        StringBuilder b = new StringBuilder();
        if (neg) {
            b.append('-');
        }
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                b.append("0.").append("0".repeat(-decpt)).append(digits);
            } else if (decpt >= digits.length()) {
                b.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
            } else {
                b.append(digits, 0, decpt).append('.').append(digits.substring(decpt));
            }
            return b.toString();
        }
        b.append(digits.charAt(0));
        if (digits.length() > 1) {
            b.append('.').append(digits.substring(1));
        }
        int e = decpt - 1;
        b.append('e').append(e < 0 ? '-' : '+');
        e = Math.abs(e);
        if (e < 10) {
            b.append('0');
        }
        return b.append(e).toString();
    }

    /** Plain decimal text of unscaled * 10^-scale with exactly scale fraction digits. */
    static String decimal(BigInteger unscaled, int scale) {
        String digits = unscaled.abs().toString();
        String sign = unscaled.signum() < 0 ? "-" : "";
        if (scale <= 0) {
            return sign + digits + "0".repeat(-scale);
        }
        if (digits.length() <= scale) {
            digits = "0".repeat(scale - digits.length() + 1) + digits;
        }
        int cut = digits.length() - scale;
        return sign + digits.substring(0, cut) + "." + digits.substring(cut);
    }

    static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder(bytes.length * 2);
        for (byte x : bytes) {
            b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return b.toString();
    }

    static String year(int y) {
        if (y > 9999) {
            return "+" + y;
        }
        if (y < 0) {
            return String.format("-%04d", -y);
        }
        return String.format("%04d", y);
    }

    static String date(int days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        return year(d.getYear()) + String.format("-%02d-%02d", d.getMonthValue(), d.getDayOfMonth());
    }

    static String time(int millis) {
        long m = millis;
        String neg = "";
        if (m < 0) {
            neg = "-";
            m = -m;
        }
        return String.format("%s%02d:%02d:%02d.%03d", neg, m / 3600000, m / 60000 % 60, m / 1000 % 60, m % 1000);
    }

    static String timestamp(long millis, int nanoOfMilli) {
        long sec = Math.floorDiv(millis, 1000L);
        int nanos = (int) (Math.floorMod(millis, 1000L) * 1_000_000L + nanoOfMilli);
        LocalDateTime t = LocalDateTime.ofEpochSecond(sec, nanos, ZoneOffset.UTC);
        return year(t.getYear())
                + String.format("-%02d-%02dT%02d:%02d:%02d.%09d", t.getMonthValue(), t.getDayOfMonth(),
                        t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
    }
}
