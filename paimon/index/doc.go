// Package index implements Paimon's bucket index files and the dynamic-bucket key assigner
// (Java HashIndexFile, DynamicBucketIndexMaintainer, PartitionIndex, HashBucketAssigner with one
// assigner, IndexManifestFileHandler).
//
// A dynamic-bucket primary-key table (bucket = -1) records which bucket holds each key in HASH
// index files: per (partition, bucket) one file of the BinaryRow hashCode of every trimmed primary
// key in that bucket, int32 big-endian. The snapshot's index manifest lists the live index files in
// full; a new file for a (partition, bucket, type) replaces the previous one.
//
// Invariants:
//   - A key hash is in at most one bucket's HASH file of a partition. Assign returns the bucket the
//     table's index already holds for a hash; a new hash fills the lowest non-full bucket up to
//     dynamic-bucket.target-row-num, then opens the lowest unused bucket id (Java PartitionIndex).
//   - Index files are written in Java's byte order: the hashes in the iteration order of the fastutil
//     IntOpenHashSet Java fills with the restored file, then with the keys in write order.
//   - Files are never modified: a changed bucket gets a new file; the commit message deletes the old
//     one and adds the new one (Combine applies Java's replace semantics).
//   - Decoders never panic; malformed files give errors wrapping spec.ErrCorrupt.
package index
