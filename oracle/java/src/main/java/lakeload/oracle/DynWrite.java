package lakeload.oracle;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.RowPartitionKeyExtractor;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * Writes rows into an existing dynamic-bucket primary-key table the way Flink's dynamic-bucket sink
 * does: Java's HashBucketAssigner (one assigner, restored from the latest snapshot's HASH index)
 * picks each row's bucket from the hashCode of its trimmed primary key, then TableWrite.write(row,
 * bucket) writes it and maintains the bucket's HASH index; one batch commit.
 *
 * <pre>
 *   java -cp ORACLE_CLASSPATH lakeload.oracle.DynWrite --table PATH --rows FILE
 *   java -cp ORACLE_CLASSPATH lakeload.oracle.DynWrite serve   (stdin lines "PATH\tFILE"; replies "ok" or "error: ...")
 * </pre>
 *
 * FILE holds one JSON object per line in the canonical row form (column name → value), with an
 * optional "_kind" of +I, -U, +U or -D.
 */
public final class DynWrite {
    private DynWrite() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("serve")) {
            PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
            System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] parts = line.split("\t", 2);
                try {
                    write(parts[0], parts[1]);
                    out.println("ok");
                } catch (Exception e) {
                    out.println(("error: " + e).replace('\n', ' '));
                }
            }
            return;
        }
        String table = null;
        String rows = null;
        for (int i = 1; i < args.length; i += 2) {
            switch (args[i - 1]) {
                case "--table": table = args[i]; break;
                case "--rows": rows = args[i]; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i - 1]);
            }
        }
        if (table == null || rows == null) {
            throw new IllegalArgumentException("usage: DynWrite --table PATH --rows FILE");
        }
        write(table, rows);
    }

    static void write(String table, String rows) throws Exception {
        FileStoreTable t = Tables.open(table);
        CoreOptions o = t.coreOptions();
        if (o.bucket() != -1 || t.primaryKeys().isEmpty()) {
            throw new IllegalArgumentException("table " + table + " is not a dynamic-bucket primary-key table");
        }
        RowType rt = t.rowType();
        RowPartitionKeyExtractor keys = new RowPartitionKeyExtractor(t.schema());
        Integer maxBuckets = o.dynamicBucketMaxBuckets();
        HashBucketAssigner assigner = new HashBucketAssigner(t.snapshotManager(), "lakeload-oracle",
                t.store().newIndexFileHandler(), 1, 1, 0, o.dynamicBucketTargetRowNum(),
                maxBuckets == null ? -1 : maxBuckets);
        BatchWriteBuilder wb = t.newBatchWriteBuilder();
        List<String> lines = Files.readAllLines(Paths.get(rows), StandardCharsets.UTF_8);
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) Json.parse(line);
                Object kind = m.get("_kind");
                GenericRow row = new GenericRow(kind == null ? RowKind.INSERT : RowKind.fromShortString((String) kind), rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    DataField f = rt.getFields().get(i);
                    Object v = m.get(f.name());
                    row.setField(i, v == null ? null : Filters.literal(f.type(), v));
                }
                BinaryRow part = keys.partition(row);
                int bucket = assigner.assign(part, keys.trimmedPrimaryKey(row).hashCode());
                w.write(row, bucket);
            }
            c.commit(w.prepareCommit());
        }
    }
}
