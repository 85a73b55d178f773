// Package table is a handle on one Paimon table directory: its schema, options, file naming and
// snapshot bookkeeping.
//
// Invariants:
//   - Snapshot and schema files are created only through fileio.WriteIfAbsent, so two writers can
//     never both create snapshot-N; the loser sees an error wrapping fileio.ErrExist and must re-plan.
//   - LATEST/EARLIEST are hints. The latest snapshot is LATEST only if snapshot-(LATEST+1) does not
//     exist; otherwise the snapshot directory is listed (Java HintFileUtils.findLatest).
//   - Data files are placed exactly where Java computes them from the manifest's partition bytes.
//   - A table with an Owner (a REST catalog) gets no snapshot file or hint from lakeload: its snapshots are
//     created by the owner, which also names the latest one (owner.go).
package table
