package lakeload.oracle;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;

/**
 * Turns the oracle filter JSON ({"op":"eq","field":"id","value":5}, "and"/"or" with "args") into a
 * Paimon Predicate. Literals are in canonical text form (see oracle/README.md).
 */
final class Filters {
    private Filters() {}

    @SuppressWarnings("unchecked")
    static Predicate build(RowType rowType, Object json) {
        if (!(json instanceof Map)) {
            throw new IllegalArgumentException("filter must be a JSON object, got " + json);
        }
        Map<String, Object> m = (Map<String, Object>) json;
        String op = String.valueOf(m.get("op"));
        PredicateBuilder pb = new PredicateBuilder(rowType);
        if (op.equals("and") || op.equals("or")) {
            List<Predicate> args = new ArrayList<>();
            for (Object a : (List<Object>) m.get("args")) {
                args.add(build(rowType, a));
            }
            if (args.isEmpty()) {
                throw new IllegalArgumentException("'" + op + "' needs at least one arg");
            }
            return op.equals("and") ? PredicateBuilder.and(args) : PredicateBuilder.or(args);
        }
        String field = (String) m.get("field");
        int idx = pb.indexOf(field);
        if (idx < 0) {
            throw new IllegalArgumentException("filter field '" + field + "' is not a column of " + rowType.getFieldNames());
        }
        DataType t = rowType.getTypeAt(idx);
        switch (op) {
            case "eq": return pb.equal(idx, literal(t, m.get("value")));
            case "ne": return pb.notEqual(idx, literal(t, m.get("value")));
            case "lt": return pb.lessThan(idx, literal(t, m.get("value")));
            case "le": return pb.lessOrEqual(idx, literal(t, m.get("value")));
            case "gt": return pb.greaterThan(idx, literal(t, m.get("value")));
            case "ge": return pb.greaterOrEqual(idx, literal(t, m.get("value")));
            case "is_null": return pb.isNull(idx);
            case "is_not_null": return pb.isNotNull(idx);
            case "in": {
                List<Object> vals = new ArrayList<>();
                for (Object v : (List<Object>) m.get("values")) {
                    vals.add(literal(t, v));
                }
                return pb.in(idx, vals);
            }
            default:
                throw new IllegalArgumentException("unknown filter op '" + op + "'");
        }
    }

    /** Converts a canonical JSON value to Paimon's internal literal for type t. */
    static Object literal(DataType t, Object v) {
        if (v == null) {
            throw new IllegalArgumentException("null literal; use is_null");
        }
        String s = v instanceof BigDecimal ? ((BigDecimal) v).toPlainString() : String.valueOf(v);
        switch (t.getTypeRoot()) {
            case BOOLEAN: return Boolean.parseBoolean(s);
            case TINYINT: return Byte.parseByte(s);
            case SMALLINT: return Short.parseShort(s);
            case INTEGER: return Integer.parseInt(s);
            case BIGINT: return Long.parseLong(s);
            case FLOAT: return (float) parseDouble(s);
            case DOUBLE: return parseDouble(s);
            case DECIMAL: {
                DecimalType dt = (DecimalType) t;
                return Decimal.fromBigDecimal(new BigDecimal(s), dt.getPrecision(), dt.getScale());
            }
            case CHAR:
            case VARCHAR: return BinaryString.fromString(s);
            case BINARY:
            case VARBINARY: return unhex(s);
            case DATE: return (int) LocalDate.parse(s).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE: return (int) (LocalTime.parse(s).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: return Timestamp.fromLocalDateTime(LocalDateTime.parse(s));
            default:
                throw new IllegalArgumentException("no filter literal rule for type " + t);
        }
    }

    private static double parseDouble(String s) {
        switch (s) {
            case "NaN": return Double.NaN;
            case "Infinity": return Double.POSITIVE_INFINITY;
            case "-Infinity": return Double.NEGATIVE_INFINITY;
            default: return Double.parseDouble(s);
        }
    }

    static byte[] unhex(String s) {
        if (s.length() % 2 != 0) {
            throw new IllegalArgumentException("odd-length hex literal " + s);
        }
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
