package job

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// Overwrite jobs into deletion-vector and first-row tables (docs/protocol.md, "Overwrite jobs").
//
// Java's batch reads skip level-0 files of these tables, so an OVERWRITE snapshot adding the staged
// level-0 files would show every replaced partition empty (its old files deleted, its new ones
// hidden) until a compaction. Instead, just before the final commit, the staged files of every
// (partition, bucket) — all windows' — are merged into one sorted run at the highest level
// (compact.MergeFiles; the old files are replaced, so retracts are dropped), and the OVERWRITE
// snapshot adds those files in place of the staged ones. It is visible to Java the moment it lands:
// readers see the old rows, then the new ones, with no moment in between. Staged files stay where
// they are (never committed; orphan cleanup removes them once the job is done). The replaced
// partitions are still those of the staged files, so a partition whose new input retracts every
// key is replaced by nothing. Verification of the final snapshot checks the merged run's shape
// (verifyMergedAdds) instead of file names, which are not recorded in the checkpoint store; a run
// that crashes after merging and before the commit merges again (the earlier outputs are orphans).

// mergeStaged returns msgs with the new data files of every (partition, bucket) replaced by their
// merge into one sorted run at the table's highest level, and a function deleting those outputs
// (call it only when the commit certainly did not land). Index changes are kept as they are.
// Hook points: before-compact and inside-compact (outputs written), window = the final identifier.
func (d *overwriteMode) mergeStaged(ctx context.Context, id int64, msgs []table.CommitMessage) (_ []table.CommitMessage, abort func(context.Context) error, err error) {
	if err := d.cfg.hook(ctx, PointBeforeCompact, id); err != nil {
		return nil, nil, err
	}
	level, err := compact.MaxLevel(d.t)
	if err != nil {
		return nil, nil, err
	}
	type group struct {
		part          []byte
		bucket, total int32
		files         []manifest.DataFileMeta
	}
	var order []bucketID
	groups := map[bucketID]*group{}
	var out []table.CommitMessage
	for _, m := range msgs {
		if len(m.NewFiles) > 0 {
			k := bucketID{string(m.Partition), m.Bucket}
			g := groups[k]
			if g == nil {
				g = &group{part: m.Partition, bucket: m.Bucket, total: m.TotalBuckets}
				groups[k] = g
				order = append(order, k)
			}
			g.files = append(g.files, m.NewFiles...)
		}
		if len(m.NewIndexFiles) > 0 || len(m.DeletedIndexFiles) > 0 {
			m.NewFiles = nil
			out = append(out, m)
		}
	}
	var merged []*compact.Merged
	abort = func(ctx context.Context) error {
		var errs []error
		for _, m := range merged {
			errs = append(errs, m.Abort(ctx))
		}
		return errors.Join(errs...)
	}
	start, before, after := time.Now(), 0, 0
	for _, k := range order {
		g := groups[k]
		m, err := compact.MergeFiles(ctx, d.t, g.part, g.bucket, g.total, g.files, level, true, d.cfg.Now)
		if err != nil {
			return nil, nil, errors.Join(fmt.Errorf("overwrite job %s: merging the staged files of bucket %d into level %d before the overwrite commit: %w; "+
				"nothing was committed, run the job again", d.cfg.Name, g.bucket, level, err), abort(ctx))
		}
		merged = append(merged, m)
		before, after = before+len(g.files), after+len(m.Files)
		out = append(out, table.CommitMessage{Partition: g.part, Bucket: g.bucket, TotalBuckets: g.total, NewFiles: m.Files})
	}
	d.cfg.Logger.Info("staged files merged for the overwrite commit", "job", d.cfg.Name, "buckets", len(order), "level", level,
		"files_before", before, "files_after", after, "took", time.Since(start).Round(time.Millisecond))
	if err := d.cfg.hook(ctx, PointInsideCompact, id); err != nil {
		return nil, nil, errors.Join(err, abort(ctx))
	}
	return out, abort, nil
}

// bucketID names a (partition, bucket).
type bucketID struct {
	part   string
	bucket int32
}

// verifyMergedAdds checks the ADD entries of a final snapshot made by mergeStaged against the
// staged files it merged: every added file lies in a (partition, bucket) that has staged files, at
// the highest level, with sequence numbers within the staged ones', no more rows per bucket than
// staged, and the files of a bucket form one sorted run (disjoint, ordered key ranges).
func (d *overwriteMode) verifyMergedAdds(added []manifest.ManifestEntry, staged map[bucketID][]manifest.DataFileMeta) error {
	level, err := compact.MaxLevel(d.t)
	if err != nil {
		return err
	}
	keyTypes := d.t.KeyTypes()
	perBucket := map[bucketID][]manifest.DataFileMeta{}
	for _, e := range added {
		k := bucketID{string(e.Partition), e.Bucket}
		if _, ok := staged[k]; !ok {
			return fmt.Errorf("adds file %s to bucket %d of a partition without staged files", e.File.FileName, e.Bucket)
		}
		if e.File.Level != level {
			return fmt.Errorf("adds file %s at level %d, the merged staged files are written at level %d", e.File.FileName, e.File.Level, level)
		}
		perBucket[k] = append(perBucket[k], e.File)
	}
	for k, files := range perBucket {
		var rows, stagedRows int64
		minSeq, maxSeq := int64(1<<63-1), int64(-1<<63)
		for _, f := range staged[k] {
			stagedRows += f.RowCount
			minSeq, maxSeq = min(minSeq, f.MinSequenceNumber), max(maxSeq, f.MaxSequenceNumber)
		}
		keys := make([][2][]any, len(files))
		for i, f := range files {
			rows += f.RowCount
			if f.MinSequenceNumber < minSeq || f.MaxSequenceNumber > maxSeq {
				return fmt.Errorf("file %s has sequence numbers %d..%d outside the staged %d..%d", f.FileName, f.MinSequenceNumber, f.MaxSequenceNumber, minSeq, maxSeq)
			}
			lo, err1 := binrow.Deserialize(keyTypes, f.MinKey)
			hi, err2 := binrow.Deserialize(keyTypes, f.MaxKey)
			if err := errors.Join(err1, err2); err != nil {
				return fmt.Errorf("file %s: key range: %w", f.FileName, err)
			}
			keys[i] = [2][]any{lo, hi}
		}
		if rows > stagedRows {
			return fmt.Errorf("bucket %d: the added files hold %d rows, the staged files only %d", k.bucket, rows, stagedRows)
		}
		for i := range keys {
			for j := range keys {
				if i != j && binrow.CompareRows(keyTypes, keys[i][0], keys[j][1]) <= 0 && binrow.CompareRows(keyTypes, keys[j][0], keys[i][1]) <= 0 {
					return fmt.Errorf("bucket %d: files %s and %s overlap in key range: not one sorted run", k.bucket, files[i].FileName, files[j].FileName)
				}
			}
		}
	}
	return nil
}
