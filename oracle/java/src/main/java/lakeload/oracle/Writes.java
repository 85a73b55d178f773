package lakeload.oracle;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * Writes of the oracle (tests and fixture generation only): a batch write of canonical rows, creating
 * the table from a spec when absent, and a full compaction of every bucket.
 */
final class Writes {
    private Writes() {}

    /**
     * Creates the table at path from spec if it has no schema yet, writes rows (canonical JSON objects,
     * optional "_kind" +I/-U/+U/-D) with one batch commit, and returns the latest snapshot id.
     * spec = {"columns":[{"name","type"}],"primaryKeys":[..],"partitionKeys":[..],"options":{..}}, types in
     * Paimon SQL ("TIMESTAMP(9) WITH LOCAL TIME ZONE", "ARRAY<TIMESTAMP(9)>", "ROW<t TIMESTAMP(8), n INT>").
     */
    @SuppressWarnings("unchecked")
    static long write(String path, Map<String, Object> spec, List<Object> rows) throws Exception {
        SchemaManager sm = new SchemaManager(LocalFileIO.create(), new Path(path));
        if (!sm.latest().isPresent()) {
            if (spec == null) {
                throw new IllegalArgumentException("table " + path + " does not exist and the request has no spec");
            }
            sm.createTable(schema(spec));
        }
        FileStoreTable t = Tables.open(path);
        RowType rt = t.rowType();
        BatchWriteBuilder wb = t.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            for (Object o : rows) {
                Map<String, Object> m = (Map<String, Object>) (o instanceof String ? Json.parse((String) o) : o);
                Set<String> unknown = new HashSet<>(m.keySet());
                unknown.remove("_kind");
                unknown.removeAll(rt.getFieldNames());
                if (!unknown.isEmpty()) {
                    throw new IllegalArgumentException("row has columns not in the table: " + unknown);
                }
                Object kind = m.get("_kind");
                GenericRow row = new GenericRow(
                        kind == null ? RowKind.INSERT : RowKind.fromShortString((String) kind), rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    DataField f = rt.getFields().get(i);
                    row.setField(i, value(f.type(), m.get(f.name())));
                }
                w.write(row);
            }
            c.commit(w.prepareCommit());
        }
        return latest(path);
    }

    /**
     * Full compaction (TableWrite.compact(partition, bucket, true)) of every bucket of the latest
     * snapshot, one batch commit; returns the latest snapshot id. Primary-key and fixed-bucket tables.
     */
    static long compact(String path) throws Exception {
        FileStoreTable t = Tables.open(path);
        if (t.coreOptions().bucket() == -1 && t.primaryKeys().isEmpty()) {
            throw new IllegalArgumentException("compact: table " + path + " is an unaware-bucket append table");
        }
        Map<String, BinaryRow> seen = new LinkedHashMap<>();
        List<BinaryRow> parts = new ArrayList<>();
        List<Integer> buckets = new ArrayList<>();
        for (Split s : t.newReadBuilder().newScan().plan().splits()) {
            DataSplit d = (DataSplit) s;
            String key = d.partition().toString() + "/" + d.bucket();
            if (seen.putIfAbsent(key, d.partition()) == null) {
                parts.add(d.partition());
                buckets.add(d.bucket());
            }
        }
        BatchWriteBuilder wb = t.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            for (int i = 0; i < parts.size(); i++) {
                w.compact(parts.get(i), buckets.get(i), true);
            }
            c.commit(w.prepareCommit());
        }
        return latest(path);
    }

    private static long latest(String path) {
        Long id = Tables.open(path).snapshotManager().latestSnapshotId();
        return id == null ? 0 : id;
    }

    @SuppressWarnings("unchecked")
    private static Schema schema(Map<String, Object> spec) {
        Schema.Builder b = Schema.newBuilder();
        for (Object o : (List<Object>) spec.get("columns")) {
            Map<String, Object> c = (Map<String, Object>) o;
            b.column((String) c.get("name"), type((String) c.get("type")));
        }
        if (spec.get("primaryKeys") != null) {
            b.primaryKey(strings(spec.get("primaryKeys")));
        }
        if (spec.get("partitionKeys") != null) {
            b.partitionKeys(strings(spec.get("partitionKeys")));
        }
        if (spec.get("options") != null) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) spec.get("options")).entrySet()) {
                b.option(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object s : (List<Object>) o) {
            out.add((String) s);
        }
        return out;
    }

    /** Parses a Paimon SQL type; Paimon's own parser takes atomic types only, so nesting is split here. */
    static DataType type(String s) {
        s = s.trim();
        boolean notNull = s.toUpperCase().endsWith(" NOT NULL") && s.lastIndexOf('>') < s.length() - " NOT NULL".length();
        String body = notNull ? s.substring(0, s.length() - " NOT NULL".length()).trim() : s;
        int lt = body.indexOf('<');
        if (lt < 0 || !body.endsWith(">")) {
            return DataTypeJsonParser.parseAtomicTypeSQLString(s);
        }
        String kind = body.substring(0, lt).trim().toUpperCase();
        List<String> args = splitTop(body.substring(lt + 1, body.length() - 1));
        DataType out;
        switch (kind) {
            case "ARRAY":
                out = DataTypes.ARRAY(type(args.get(0)));
                break;
            case "MAP":
                out = DataTypes.MAP(type(args.get(0)), type(args.get(1)));
                break;
            case "ROW": {
                List<DataField> fs = new ArrayList<>();
                for (int i = 0; i < args.size(); i++) {
                    String a = args.get(i).trim();
                    int sp = a.indexOf(' ');
                    fs.add(DataTypes.FIELD(i, a.substring(0, sp), type(a.substring(sp + 1))));
                }
                out = DataTypes.ROW(fs.toArray(new DataField[0]));
                break;
            }
            default:
                throw new IllegalArgumentException("unsupported type " + s);
        }
        return out.copy(!notNull);
    }

    private static List<String> splitTop(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '<' || ch == '(') {
                depth++;
            } else if (ch == '>' || ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /** Converts a canonical JSON value (oracle/README.md) to Paimon's internal value of type t. */
    @SuppressWarnings("unchecked")
    static Object value(DataType t, Object v) {
        if (v == null) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case ARRAY: {
                List<Object> l = (List<Object>) v;
                Object[] out = new Object[l.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = value(((ArrayType) t).getElementType(), l.get(i));
                }
                return new GenericArray(out);
            }
            case MAP: {
                MapType mt = (MapType) t;
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Object p : (List<Object>) v) {
                    List<Object> kv = (List<Object>) p;
                    out.put(value(mt.getKeyType(), kv.get(0)), value(mt.getValueType(), kv.get(1)));
                }
                return new GenericMap(out);
            }
            case ROW: {
                RowType rt = (RowType) t;
                Map<String, Object> m = (Map<String, Object>) v;
                GenericRow out = new GenericRow(rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    out.setField(i, value(rt.getTypeAt(i), m.get(rt.getFieldNames().get(i))));
                }
                return out;
            }
            default:
                return Filters.literal(t, v);
        }
    }
}
