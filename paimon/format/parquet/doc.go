// Package parquet is lakeload's Paimon data-file layer: it maps Paimon types to the Parquet layout
// Java Paimon writes (ParquetSchemaConverter), writes data files that Java 1.x/2.x and pypaimon
// read, computes the file's value statistics, and reads data files back as Arrow. The Arrow side of
// the mapping (Paimon type → Arrow type, Datum ↔ Arrow value) is paimon/arrowconv's.
//
// Writer has two encoders behind one API, chosen per file by NewWriter. When every field is a flat
// atomic column of physical type BOOLEAN, INT32, INT64, FLOAT, DOUBLE or BYTE_ARRAY (everything but
// DECIMAL, TIMESTAMP p>6 and ARRAY/MAP/MULTISET/ROW) the fast path (fastwriter.go: the file and its
// row groups; fastcolumn.go: a column's pages; faststats.go: its statistics) encodes the
// pages itself: values straight from the Arrow buffers into PLAIN or dictionary pages
// (rlehybrid.go for levels and indices, thriftcompact.go for page headers, arrow-go's metadata
// builders for the footer), taking Paimon's and the footer's statistics in the same pass. Every
// other file goes through arrow-go's column writers (physical.go, levels.go). On the fast path a
// column given the very same Arrow array as an earlier column of the same leaf type (a primary-key
// table's _KEY_ column and its value column) repeats that column's pages (fastmirror.go) until a
// batch gives it another array, and a closed file hands its buffers to the next (fastpool.go).
// Both paths write the same schema, row groups, encodings' choice and footer statistics; the fast
// path writes no page-level statistics in data page headers (no reader of Paimon files uses them)
// and no cost-based dictionary fallback for uncompressed files (the dictionary falls back only
// when it reaches 1 MiB).
//
// Invariants:
//   - Writer emits only PLAIN and dictionary (PLAIN/RLE_DICTIONARY) value encodings, RLE levels,
//     a dictionary only for the columns whose first batch it would shrink (dictionary.go, parquet-mr's
//     break-even: dictionary + index bytes < plain bytes),
//     data page v1, root message "paimon_schema", Java's physical type per Paimon type (§6.2):
//     TINYINT/SMALLINT INT32+INT(8/16), DECIMAL INT32/INT64/FIXED_LEN_BYTE_ARRAY by precision,
//     TIMESTAMP p<=3 INT64 millis, p<=6 INT64 micros, p>6 INT96 (Java 1.0/1.1 reject anything else
//     for p>6), and Java's field ids (nested ids per SpecialFields; negative ids are omitted).
//   - FileStats are computed from the values written, never from Parquet metadata, with Java's
//     comparator and its default metadata.stats-mode truncate(16) (stats.go's collectors; the fast
//     path fills the same collectors from its per-chunk minima and maxima).
//   - FileStats.FileSize is the exact number of bytes handed to the io.Writer.
//   - Decoders never panic: malformed files yield errors wrapping spec.ErrCorrupt.
//   - INT96 decodes as Java Paimon writes and reads it (int96.go): signed nanos of day + signed
//     Julian day, so Java's negative nanos of day before 1970 read exactly; pqarrow never decodes
//     INT96 itself. Every reader of data files goes through Reader or GetRecordReader. A value
//     beyond int64 nanoseconds (lakeload's TIMESTAMP(7..9)) is an error wrapping ErrUnrepresentable
//     that names the column and the value, never a wrong value.
//
// Datums follow paimon/spec/types.go (arrowconv.DatumAt / arrowconv.AppendDatum convert between
// Arrow and Datums).
package parquet
