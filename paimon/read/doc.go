// Package read plans scans of a Paimon table and reads its rows (Java DataTableBatchScan +
// MergeFileSplitRead / RawFileSplitRead).
//
// Invariants (they mirror Java's batch read so that lakeload, Java and pypaimon see the same rows):
//   - A scan reads the live files of one snapshot: base + delta manifests with ADD/DELETE cancelled.
//   - For primary-key tables with deletion vectors or merge-engine first-row, level-0 files are
//     skipped, as Java's batch scan does.
//   - Overlapping files of a bucket are merged by key with the table's merge function; a section made
//     of one file without retract rows is read as is.
//   - Deletion vectors remove rows by position before anything else sees them.
//   - A data file's format is its name's extension, as in Java (datafile.FormatOf). Parquet files
//     are decoded only through paimon/format/parquet (Reader, GetRecordReader), which reads INT96
//     timestamps as Java writes them; ORC and Avro files through paimon/format/orc and
//     paimon/format/avro, whose batches have the same Arrow types; any other format is
//     datafile.ErrUnsupported. This holds on the row path, the columnar path and in merges.
//   - The row path streams: a file is decoded one Parquet record batch (8192 rows) at a time, and a
//     merge holds at most one batch per sorted run of its section, never a whole file.
//   - Records decodes a file that needs no merge (read as is by the rules above, written with the
//     reading schema, and in a primary-key table known to hold no retract rows) straight into Arrow
//     batches without system columns; its output equals the row path's (ReadSplit) value for value.
//   - Records merges the splits of deduplicate and first-row tables on Arrow batches (typed key
//     comparators, same order and winners as mergetree.Merge) when every file has the reading
//     schema and no deletion vector; otherwise the row path merges. Either way the output equals
//     ReadSplit's. With RecordsOptions.Parallel splits decode concurrently (started by the caller's
//     Runner; this package starts no goroutines) and batches still come in plan order, to one
//     call of fn at a time, with at most Workers+1 splits decoded ahead of the output.
package read
