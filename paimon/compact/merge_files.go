package compact

import (
	"context"
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// MaxLevel is the highest level of t's LSM trees (num-levels − 1), where a full compaction writes.
func MaxLevel(t *table.Table) (int32, error) {
	s, err := StrategyOf(t)
	if err != nil {
		return 0, err
	}
	return int32(s.NumLevels - 1), nil
}

// Merged is the output of MergeFiles.
type Merged struct {
	Files []manifest.DataFileMeta // the new sorted run, in key order (empty when every key was retracted)
	out   outputs
	t     *table.Table
}

// Abort deletes the output files; call it only when they are certainly referenced by no snapshot.
func (m *Merged) Abort(ctx context.Context) error {
	if m == nil || m.t == nil {
		return nil
	}
	return deleteOutputs(ctx, m.t, []outputs{m.out})
}

// MergeFiles merges files — data files of one (partition, bucket) of primary-key table t, not
// necessarily committed, with deletion vectors of none — with t's merge engine into one sorted run at
// level, written as new files in t's current schema (file source COMPACT). dropRetracts drops retract
// results; set it only when the output will be the bucket's highest non-empty level. Nothing is
// committed. On error the outputs written so far are deleted.
func MergeFiles(ctx context.Context, t *table.Table, partition []byte, bucket, totalBuckets int32, files []manifest.DataFileMeta,
	level int32, dropRetracts bool, now func() time.Time) (*Merged, error) {
	if !t.HasPrimaryKey() {
		return nil, fmt.Errorf("merge files of %s: the table has no primary key", t.Path)
	}
	reader, err := read.NewReader(t, t.Schema)
	if err != nil {
		return nil, err
	}
	w, err := write.NewRunWriter(t, partition, bucket, level, now)
	if err != nil {
		return nil, err
	}
	split := read.Split{Partition: partition, Bucket: bucket, TotalBuckets: totalBuckets, Files: files}
	if err := reader.ReadKeyValues(ctx, split, dropRetracts, func(kv mergetree.KeyValue) error { return w.Add(ctx, kv) }); err != nil {
		return nil, fmt.Errorf("merge %d files of bucket %d of %s: %w (and removing the outputs: %v)", len(files), bucket, t.Path, err, w.Abort(ctx))
	}
	out, err := closeRun(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("merge %d files of bucket %d of %s: %w", len(files), bucket, t.Path, err)
	}
	return &Merged{Files: out, out: outputs{partition: partition, bucket: bucket, files: out}, t: t}, nil
}
