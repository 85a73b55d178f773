// Package maintain removes what a Paimon table no longer needs: expired snapshots with the files
// only they referenced (Java ExpireSnapshotsImpl + SnapshotDeletion), abandoned consumers, and
// orphan files that no snapshot, tag or in-flight load references (Java LocalOrphanFilesClean).
//
// Invariants:
//   - Expire picks the expired range [begin, end) exactly as Java 1.4 does: at most
//     snapshot.num-retained.max snapshots are kept, at least snapshot.num-retained.min, a snapshot
//     younger than snapshot.time-retained stops the range, at most snapshot.expire.limit go per run,
//     and end never passes the smallest nextSnapshot of a live consumer.
//   - Expire never deletes a file that snapshot end (the new earliest), a later snapshot or a tag
//     references: data files are deleted only when a delta in (begin, end] DELETEs them and no
//     earlier tag holds them; manifests, manifest lists, index and statistics files only when the
//     snapshot end and the tags overlapping the range do not reference them.
//   - Deletion order is Java's: data files, changelog files, metadata files, then the snapshot files
//     in ascending id, then EARLIEST. A crash at any point leaves every snapshot ≥ end complete and
//     the existing snapshot ids contiguous; running Expire again finishes the job (missing files are
//     skipped, as Java does). EARLIEST is a hint only.
//   - CleanOrphans deletes only regular files older than its bound under manifest/, index/,
//     statistics/, the partition/bucket directories, and non-snapshot leftovers (temporary files) in
//     snapshot/ and changelog/. It never deletes snapshot, schema, hint, tag or consumer files, and it
//     stops with an error instead of guessing when metadata of an existing snapshot cannot be read.
//   - This package never imports the loader (job, checkpoint): files of load jobs that are stored
//     but not yet committed reach CleanOrphans as the Protected file names its caller collects.
package maintain
