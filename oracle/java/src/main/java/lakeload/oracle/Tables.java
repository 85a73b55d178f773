package lakeload.oracle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;

/** Table operations of the oracle: canonical reads and snapshot listings. */
final class Tables {
    private Tables() {}

    /** A read request: table path plus optional snapshot, filter JSON, projection and table options. */
    static final class ReadRequest {
        String table;
        Long snapshot;
        Object filter;
        List<String> projection;
        Map<String, String> options = new HashMap<>();
    }

    static FileStoreTable open(String path) {
        return FileStoreTableFactory.create(LocalFileIO.create(), new Path(path));
    }

    /**
     * Reads the table and returns its canonical lines sorted. The filter is pushed down for pruning
     * and then applied exactly to every row; the projection only selects output columns.
     */
    static List<String> read(ReadRequest r) throws Exception {
        FileStoreTable t = open(r.table);
        Map<String, String> opts = new HashMap<>(r.options);
        if (r.snapshot != null) {
            opts.put("scan.snapshot-id", Long.toString(r.snapshot));
        }
        if (!opts.isEmpty()) {
            t = t.copy(opts);
        }
        RowType rt = t.rowType();
        int[] pos;
        if (r.projection == null) {
            pos = new int[rt.getFieldCount()];
            for (int i = 0; i < pos.length; i++) {
                pos[i] = i;
            }
        } else {
            pos = new int[r.projection.size()];
            for (int i = 0; i < pos.length; i++) {
                pos[i] = rt.getFieldIndex(r.projection.get(i));
                if (pos[i] < 0) {
                    throw new IllegalArgumentException("projection column '" + r.projection.get(i)
                            + "' is not in " + rt.getFieldNames());
                }
            }
        }
        Predicate pred = r.filter == null ? null : Filters.build(rt, r.filter);
        ReadBuilder rb = t.newReadBuilder();
        if (pred != null) {
            rb = rb.withFilter(pred);
        }
        List<String> lines = new ArrayList<>();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    if (pred == null || pred.test(row)) {
                        lines.add(Canon.row(rt, row, pos));
                    }
                }
                batch.releaseBatch();
            }
        }
        lines.sort(Canon.CODEPOINT_ORDER);
        return lines;
    }

    /** One canonical JSON object per snapshot, ascending id. */
    static List<String> snapshots(String path) throws Exception {
        FileStoreTable t = open(path);
        List<String> out = new ArrayList<>();
        Iterator<Snapshot> it = t.snapshotManager().snapshots();
        while (it.hasNext()) {
            Snapshot s = it.next();
            StringBuilder b = new StringBuilder("{");
            b.append("\"commitIdentifier\":").append(s.commitIdentifier());
            b.append(",\"commitKind\":");
            Json.quote(b, s.commitKind().name());
            b.append(",\"commitUser\":");
            Json.quote(b, s.commitUser());
            b.append(",\"deltaRecordCount\":").append(s.deltaRecordCount());
            b.append(",\"id\":").append(s.id());
            b.append(",\"properties\":");
            Map<String, String> props = s.properties();
            if (props == null) {
                b.append("null");
            } else {
                TreeMap<String, String> sorted = new TreeMap<>(Canon.CODEPOINT_ORDER);
                sorted.putAll(props);
                b.append('{');
                boolean first = true;
                for (Map.Entry<String, String> e : sorted.entrySet()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    Json.quote(b, e.getKey()).append(':');
                    Json.quote(b, e.getValue());
                }
                b.append('}');
            }
            b.append(",\"schemaId\":").append(s.schemaId());
            b.append(",\"totalRecordCount\":").append(s.totalRecordCount());
            out.add(b.append('}').toString());
        }
        return out;
    }
}
