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
//   - windows commit in increasing order, each looked up by (user, window, APPEND) after
//     min(snapshot id seen at assignment, latest id) before every commit attempt (marker.go);
//   - the coverage published is the committed attempt's (named in the snapshot properties);
//   - no file whose commit outcome is unknown is ever deleted;
//   - row-id mode: the ids published are the committed attempt's; a window holding an id twice, or
//     an id an earlier window published, is refused before it is assigned, and no task writes a row
//     whose id is published (rowid.go);
//   - overwrite jobs (overwrite.go): windows are staged, never committed alone; one OVERWRITE
//     snapshot after the last window replaces the touched partitions (or the table), then every
//     window is recorded committed and published;
//   - incremental generations (incremental.go): a finished job loads only files no generation
//     planned; loaded files that changed or vanished are reported, never reloaded;
//   - compaction (compact.go): deletion-vector and first-row tables are compacted after a window's
//     commit and before it is published, so no published row is hidden from Java; other tables are
//     compacted in the background, at most one compaction at a time, under a commit user of its own
//     (never a marker), and a failed compaction never fails the load;
//   - dynamic-bucket tables (dynamic_bucket.go): one task per window; a commit that meets a changed
//     HASH index fails with nothing landed and the window is recomputed;
//   - schema evolution (evolve.go): a window's new schema is committed before its tasks run, and a
//     rerun that finds the columns in place adds none;
//   - bad rows (bad_rows.go, job/task quarantine.go): only the committed attempt's quarantine files
//     count, so a recomputed attempt never lists a row twice;
//   - sequence reservations (job/seqreserve): a window's base is reserved before `assigned` is written
//     and never again, so of concurrent jobs the window assigned later wins on equal keys;
//   - executors (tasks.go, job/task executor.go): the driver commits only results stored in the
//     checkpoint store, so an executor (job/temporal) that runs a task twice cannot change what is
//     committed.
//
// The package is the driver alone; what a job's kind changes is its mode (mode.go: append,
// overwrite). A task — plain data, its writing and its stored result — is package job/task; the
// input's plan is package job/plan; neither imports job or the other (docs/design.md, "Inside job").
//
// Goroutines are started here (the lease renewal, background compaction), in job/task (tasks,
// readers and bucket flushes, all through task.RunAll) and by job/temporal; the packages below
// start none on their own.
package job
