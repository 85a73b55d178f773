// Package commit turns commit messages into Paimon snapshots (Java FileStoreCommitImpl).
//
// Order of a commit attempt: delta manifest → delta manifest list → base manifest list → snapshot-N
// created with WriteIfAbsent → LATEST hint. Existing manifests are never modified or deleted.
//
// Invariants:
//   - One (commitUser, commitIdentifier, commitKind) lands at most once: after an attempt whose outcome
//     is unknown (an error other than losing the snapshot race), the next attempt first scans the
//     snapshots created since the attempt started and returns the one carrying this commit.
//   - When another writer wins snapshot N, the commit is re-planned against the new latest snapshot and
//     Java's conflict checks run again (deleted files still live, bucket counts agree, level ≥ 1 key ranges
//     of PK tables do not overlap).
//   - The snapshot's index manifest is a full list: a commit without index changes reuses the previous
//     one by name; one with changes writes a new one with Java's replace semantics (index.Combine).
//     Index changes are re-checked against the latest snapshot on every attempt: a deleted index file
//     must still be live, a (partition, bucket) that got a HASH file meanwhile must be replaced
//     explicitly, and no key hash may end up in two buckets of a partition — else ErrConflict (Java
//     checks none of this; it allows one writer per dynamic-bucket table).
package commit
