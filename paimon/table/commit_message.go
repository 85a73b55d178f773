package table

import "github.com/lakeload/lakeload/paimon/spec/manifest"

// CommitMessage is the serializable result of writing one (partition, bucket): files to add and
// files to remove. It is plain data, so it can be persisted and committed by another process.
type CommitMessage struct {
	Partition    []byte                  `json:"partition"` // serialized BinaryRow
	Bucket       int32                   `json:"bucket"`
	TotalBuckets int32                   `json:"totalBuckets"`
	NewFiles     []manifest.DataFileMeta `json:"newFiles,omitempty"`
	DeletedFiles []manifest.DataFileMeta `json:"deletedFiles,omitempty"`
}

// IsEmpty reports whether the message changes nothing.
func (m CommitMessage) IsEmpty() bool { return len(m.NewFiles) == 0 && len(m.DeletedFiles) == 0 }
