package table

import "github.com/lakeload/lakeload/paimon/spec/manifest"

// CommitMessage is the serializable result of writing one (partition, bucket): files to add and
// files to remove, and the bucket's index files (HASH for dynamic-bucket tables, DELETION_VECTORS)
// that replace or retire the ones the table had. It is plain data, so it can be persisted and
// committed by another process.
type CommitMessage struct {
	Partition    []byte                  `json:"partition"` // serialized BinaryRow
	Bucket       int32                   `json:"bucket"`
	TotalBuckets int32                   `json:"totalBuckets"`
	NewFiles     []manifest.DataFileMeta `json:"newFiles,omitempty"`
	DeletedFiles []manifest.DataFileMeta `json:"deletedFiles,omitempty"`
	// NewIndexFiles are index files (Kind ignored; Partition/Bucket taken from the message) that the
	// commit adds to the index manifest; an added file of a type replaces that bucket's file of the
	// same type in the full index manifest written for the snapshot.
	NewIndexFiles []manifest.IndexManifestEntry `json:"newIndexFiles,omitempty"`
	// DeletedIndexFiles are index files the commit removes from the index manifest.
	DeletedIndexFiles []manifest.IndexManifestEntry `json:"deletedIndexFiles,omitempty"`
}

// IsEmpty reports whether the message changes nothing.
func (m CommitMessage) IsEmpty() bool {
	return len(m.NewFiles) == 0 && len(m.DeletedFiles) == 0 && len(m.NewIndexFiles) == 0 && len(m.DeletedIndexFiles) == 0
}
