// Package write turns Arrow record batches into Paimon data files and commit messages
// (Java TableWriteImpl with MergeTreeWriter / AppendOnlyWriter).
//
// Invariants:
//   - Rows are routed exactly as Java routes them: partition BinaryRow bytes, bucket =
//     abs(murmur3(bucket-key BinaryRow) % bucket); for dynamic-bucket primary-key tables (bucket = -1)
//     the bucket the table's HASH index gives the trimmed key's hash (package index; new keys fill
//     buckets up to dynamic-bucket.target-row-num), and Prepare adds each grown bucket's new HASH
//     file to its message, deleting the file it replaces. Cross-partition ones are refused.
//   - A primary-key data file holds at most one row per key, sorted by key, folded with the table's
//     merge function, with sequence numbers above every number already live in its bucket (or above
//     Options.SequenceBase), in arrival order.
//   - Every file is written at level 0 with exact size, row count, key range, statistics and delete count;
//     only RunWriter (a compaction's output) writes higher levels, one sorted run per writer.
//   - Buffered rows are bounded by Options.BufferBytes (the table's write-buffer-size, measured as the
//     memory they keep: the capacity of their buckets' scattered column buffers, or of the Arrow
//     buffers of their batches where rows are gathered (BOOLEAN or nested columns)): reaching it flushes every bucket as level-0 sorted runs and
//     releases the rows. One Prepare may thus return several level-0 files per bucket, each a sorted
//     run with one row per key; when rows arrive out of input order (WriteSeq from parallel readers)
//     their sequence ranges may overlap, which readers resolve per key by sequence number.
//   - Tables whose level-0 files Java would not read (deletion vectors, first-row) are refused unless
//     Options.CompactsBeforePublish says the caller compacts (package compact) before relying on the
//     rows; unsupported bucket modes are refused with an error saying what to do.
package write
