package lakeload.bench;

import java.util.HashMap;
import java.util.Map;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/**
 * The Java Paimon peer of lakeload's bench (bench/README.md).
 *
 * <pre>
 * write pk|append WAREHOUSE RUNS INPUT.parquet...   RUNS times in this JVM: create table db.tN (same schema and
 *                                                 options as the bench's lakeload tables), read the input with
 *                                                 Paimon's Parquet reader, BatchTableWrite every row, commit once
 * scan TABLE_DIR RUNS                             RUNS times: read every row of the table
 * </pre>
 *
 * Prints one JSON line per run: {"run", "rows", "elapsed"} (seconds, the run's own work; run 0 is cold, later ones
 * warm). Exits non-zero with a message on any error.
 */
public final class Peer {
    private Peer() {}

    /** The bench input's columns (bench/gen.go inputSchema). */
    static final RowType INPUT = RowType.builder()
            .field("id", DataTypes.BIGINT().notNull())
            .field("name", DataTypes.STRING())
            .field("city", DataTypes.STRING())
            .field("tag", DataTypes.STRING())
            .field("v", DataTypes.DOUBLE())
            .field("w", DataTypes.DOUBLE())
            .field("ts", DataTypes.BIGINT())
            .field("dt", DataTypes.STRING().notNull())
            .build();

    public static void main(String[] args) throws Exception {
        if (args.length >= 4 && args[0].equals("write")) {
            String[] inputs = new String[args.length - 4];
            System.arraycopy(args, 4, inputs, 0, inputs.length);
            write(args[1].equals("pk"), args[2], Integer.parseInt(args[3]), inputs);
        } else if (args.length == 3 && args[0].equals("scan")) {
            scan(args[1], Integer.parseInt(args[2]));
        } else {
            System.err.println("usage: write pk|append WAREHOUSE RUNS INPUT.parquet... | scan TABLE_DIR RUNS");
            System.exit(2);
        }
    }

    static void write(boolean pk, String warehouse, int runs, String[] inputs) throws Exception {
        Options copts = new Options();
        copts.set("warehouse", warehouse);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(copts))) {
            catalog.createDatabase("db", true);
            for (int run = 0; run < runs; run++) {
                long start = System.nanoTime();
                Map<String, String> opts = new HashMap<>();
                opts.put("bucket", "8");
                opts.put("file.format", "parquet");
                opts.put("file.compression", "zstd");
                opts.put("file.compression.zstd-level", "1");
                Schema.Builder sb = Schema.newBuilder().options(opts).partitionKeys("dt");
                for (int i = 0; i < INPUT.getFieldCount(); i++) {
                    sb.column(INPUT.getFields().get(i).name(), INPUT.getTypeAt(i));
                }
                if (pk) {
                    sb.primaryKey("dt", "id");
                } else {
                    sb.option("bucket-key", "id");
                }
                Identifier id = Identifier.create("db", "t" + run);
                catalog.createTable(id, sb.build(), false);
                Table table = catalog.getTable(id);
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                long rows = 0;
                try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
                    FormatReaderFactory rf = FileFormat.fromIdentifier("parquet", new Options())
                            .createReaderFactory(INPUT, INPUT, null);
                    LocalFileIO fio = LocalFileIO.create();
                    for (String in : inputs) {
                        Path p = new Path(in);
                        try (RecordReader<InternalRow> r = rf.createReader(
                                new FormatReaderContext(fio, p, fio.getFileSize(p)))) {
                            RecordReader.RecordIterator<InternalRow> batch;
                            while ((batch = r.readBatch()) != null) {
                                InternalRow row;
                                while ((row = batch.next()) != null) {
                                    w.write(row);
                                    rows++;
                                }
                                batch.releaseBatch();
                            }
                        }
                    }
                    c.commit(w.prepareCommit());
                }
                report(run, rows, start);
            }
        }
    }

    static void scan(String dir, int runs) throws Exception {
        for (int run = 0; run < runs; run++) {
            long start = System.nanoTime();
            FileStoreTable t = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
            ReadBuilder rb = t.newReadBuilder();
            long rows = 0, sum = 0;
            try (RecordReader<InternalRow> r = rb.newRead().createReader(rb.newScan().plan())) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = r.readBatch()) != null) {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        sum += row.getLong(0); // touch the row so no reader can skip decoding
                        rows++;
                    }
                    batch.releaseBatch();
                }
            }
            if (sum == 42) {
                System.err.print(""); // keep sum live
            }
            report(run, rows, start);
        }
    }

    static void report(int run, long rows, long startNanos) {
        double s = (System.nanoTime() - startNanos) / 1e9;
        System.out.println("{\"run\": " + run + ", \"rows\": " + rows + ", \"elapsed\": " + s + "}");
        System.out.flush();
    }
}
