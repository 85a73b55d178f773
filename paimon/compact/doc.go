// Package compact compacts the data files of a Paimon table (Java MergeTreeCompactManager with
// UniversalCompaction, MergeTreeCompactRewriter, and the append tables' small-file compaction) and
// commits the result as a COMPACT snapshot.
//
// Invariants:
//   - A compaction never changes what a reader sees: outputs hold exactly the merged rows of their
//     inputs (the table's merge engine, deletion vectors applied), and one COMPACT snapshot deletes the
//     inputs at their levels and adds the outputs.
//   - Primary-key outputs form one sorted run per unit (keys unique and ascending across its files) at
//     the unit's output level, which holds no other file, so level ≥ 1 key ranges never overlap.
//     Retract rows are dropped only when the output is the bucket's highest non-empty level.
//   - Deletion-vector and first-row tables (whose level-0 files Java's batch scan skips) are compacted
//     by a full rewrite of every bucket that has level-0 files into the highest level: the output has
//     one row per key, so no deletion vector is needed, and the bucket's old deletion-vector index files
//     are retired in the same commit.
//   - Memory is bounded independently of file sizes: inputs stream through the merge one record
//     batch per sorted run, the rolling output writer holds one row group, and finished outputs are
//     remembered by name only (for an abort), so a pass over many buckets keeps no rows.
//   - MergeFiles merges data files that need not be committed (an overwrite job's staged level-0
//     files) into one sorted run at a given level and commits nothing; its caller commits the outputs
//     or deletes them (Merged.Abort).
//   - Commits use a commit user of their own ("lakeload-compact-<uuid>"), never a load job's, so
//     job markers (user, identifier, APPEND) are never confused. A commit that finds an input file
//     no longer live (another writer compacted or overwrote it) fails with commit.ErrConflict; Run
//     deletes its outputs and retries from a fresh scan.
package compact
