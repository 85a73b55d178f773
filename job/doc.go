// Package job runs exactly-once, resumable loads into a Paimon table (docs/protocol.md).
//
// The one invariant: commit first, then publish the input checkpoint. Write tasks persist their
// commit messages in the checkpoint store before they count as done; the driver commits a window's
// results as one APPEND snapshot with commit user = the job's stable user and commit identifier =
// the window number, verifies that exactly one such snapshot exists, and only then publishes the
// window's coverage. On restart, recovery (checkpoint.Decide) reads the store and the table and
// decides per window: publish, commit, or recompute — before any input is read.
//
// Obligations this package keeps for the protocol:
//   - a window's splits, sequence-number base and attempt are persisted before its tasks run;
//   - windows commit in increasing order, each looked up by (user, window, APPEND) after the
//     snapshot id seen at assignment before every commit attempt;
//   - the coverage published is the committed attempt's (named in the snapshot properties);
//   - no file whose commit outcome is unknown is ever deleted.
//   - row-id mode: the ids published are the committed attempt's; a window holding an id twice, or
//     an id an earlier window published, is refused before it is assigned, and no task writes a row
//     whose id is published (rowid.go).
//   - overwrite jobs (overwrite.go): windows are staged, never committed alone; one OVERWRITE
//     snapshot after the last window replaces the touched partitions (or the table), then every
//     window is recorded committed and published;
//   - incremental generations (incremental.go): a finished job loads only files no generation
//     planned; loaded files that changed or vanished are reported, never reloaded.
//
// Only this package starts goroutines.
package job
