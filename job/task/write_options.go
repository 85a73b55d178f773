package task

import (
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// OverwriteIndex is the index state an overwrite job's window continues (Input.OverwriteIndex):
// the staged index chain of the windows before it.
type OverwriteIndex struct {
	// Files are the HASH index files of the chain, at most one per (partition, bucket).
	Files []manifest.IndexManifestEntry `json:"files,omitempty"`
}

// slot is one (partition, bucket).
type slot struct {
	part   string
	bucket int32
}

// writeOptions returns the writer options of a task whose Input.OverwriteIndex is ix: an overwrite
// window of a dynamic-bucket table assigns keys from its staged index chain.
func writeOptions(ix *OverwriteIndex) write.Options {
	o := write.Options{CompactsBeforePublish: true} // the driver compacts before publishing (job/compact.go)
	if ix != nil {
		o.Overwrite, o.OverwriteIndex = true, ix.Files
	}
	return o
}

// recordIndexBase adds to msgs, for every partition they write, the deletion of each base HASH file
// of that partition that the writer did not replace, so that the stored result names its whole base
// (job/overwrite_dynamic.go, "the staged index chain"). Nil base: msgs unchanged.
func recordIndexBase(msgs []table.CommitMessage, base *OverwriteIndex) []table.CommitMessage {
	if base == nil {
		return msgs
	}
	written := map[string]int32{} // partition → TotalBuckets of its messages
	named := map[string]bool{}
	pos := map[slot]int{}
	for i, m := range msgs {
		if len(m.NewFiles) > 0 || len(m.NewIndexFiles) > 0 {
			written[string(m.Partition)] = m.TotalBuckets
		}
		for _, e := range m.DeletedIndexFiles {
			named[e.FileName] = true
		}
		pos[slot{string(m.Partition), m.Bucket}] = i
	}
	for _, e := range base.Files {
		total, ok := written[string(e.Partition)]
		if !ok || named[e.FileName] {
			continue
		}
		k := slot{string(e.Partition), e.Bucket}
		i, ok := pos[k]
		if !ok {
			i = len(msgs)
			pos[k] = i
			msgs = append(msgs, table.CommitMessage{Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: total})
		}
		e.Kind = manifest.Delete
		msgs[i].DeletedIndexFiles = append(msgs[i].DeletedIndexFiles, e)
	}
	return msgs
}
