package lakeload.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * Reads and writes through a Paimon REST catalog with Java's own RESTCatalog client (metastore=rest, uri,
 * token.provider=bear, token, warehouse): the "rest-read" and "rest-write" batch requests. The request's
 * "catalog" object holds uri, token and warehouse; "table" is "db.table".
 */
final class RestTables {
    private RestTables() {}

    static Catalog catalog(Map<String, Object> c) {
        if (c == null) {
            throw new IllegalArgumentException("request has no \"catalog\" {uri, token, warehouse}");
        }
        Options o = new Options();
        o.set("metastore", "rest");
        o.set("uri", String.valueOf(c.get("uri")));
        o.set("token.provider", "bear");
        o.set("token", String.valueOf(c.get("token")));
        o.set("warehouse", String.valueOf(c.get("warehouse")));
        return CatalogFactory.createCatalog(CatalogContext.create(o));
    }

    /** Canonical rows of the table's latest snapshot as Java's REST client sees it, sorted; filter as in read. */
    @SuppressWarnings("unchecked")
    static List<String> read(Map<String, Object> req) throws Exception {
        try (Catalog cat = catalog((Map<String, Object>) req.get("catalog"))) {
            FileStoreTable t = (FileStoreTable) cat.getTable(Identifier.fromString((String) req.get("table")));
            RowType rt = t.rowType();
            int[] pos = new int[rt.getFieldCount()];
            for (int i = 0; i < pos.length; i++) {
                pos[i] = i;
            }
            Predicate pred = req.get("filter") == null ? null : Filters.build(rt, req.get("filter"));
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
    }

    /**
     * Creates the table through the catalog from "spec" when it does not exist (the Writes spec), writes
     * "rows" with one batch commit through the catalog's commit endpoint and returns the latest snapshot id.
     */
    @SuppressWarnings("unchecked")
    static long write(Map<String, Object> req, List<Object> rows) throws Exception {
        try (Catalog cat = catalog((Map<String, Object>) req.get("catalog"))) {
            Identifier id = Identifier.fromString((String) req.get("table"));
            Map<String, Object> spec = (Map<String, Object>) req.get("spec");
            if (spec != null) {
                cat.createDatabase(id.getDatabaseName(), true);
                cat.createTable(id, schema(spec), true);
            }
            FileStoreTable t = (FileStoreTable) cat.getTable(id);
            RowType rt = t.rowType();
            BatchWriteBuilder wb = t.newBatchWriteBuilder();
            try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
                for (Object o : rows) {
                    Map<String, Object> m = (Map<String, Object>) (o instanceof String ? Json.parse((String) o) : o);
                    Object kind = m.get("_kind");
                    GenericRow row = new GenericRow(
                            kind == null ? RowKind.INSERT : RowKind.fromShortString((String) kind), rt.getFieldCount());
                    for (int i = 0; i < rt.getFieldCount(); i++) {
                        DataField f = rt.getFields().get(i);
                        row.setField(i, Writes.value(f.type(), m.get(f.name())));
                    }
                    w.write(row);
                }
                c.commit(w.prepareCommit());
            }
            Long latest = ((FileStoreTable) cat.getTable(id)).snapshotManager().latestSnapshotId();
            return latest == null ? 0 : latest;
        }
    }

    @SuppressWarnings("unchecked")
    private static Schema schema(Map<String, Object> spec) {
        Schema.Builder b = Schema.newBuilder();
        for (Object o : (List<Object>) spec.get("columns")) {
            Map<String, Object> c = (Map<String, Object>) o;
            b.column((String) c.get("name"), Writes.type((String) c.get("type")));
        }
        if (spec.get("primaryKeys") != null) {
            b.primaryKey((List<String>) spec.get("primaryKeys"));
        }
        if (spec.get("partitionKeys") != null) {
            b.partitionKeys((List<String>) spec.get("partitionKeys"));
        }
        if (spec.get("options") != null) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) spec.get("options")).entrySet()) {
                b.option(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        return b.build();
    }
}
