package compact

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// pass is one scan of the table with the outputs written for it.
type pass struct {
	t    *table.Table
	res  Result
	msgs []table.CommitMessage
	outs []outputs
}

// abort deletes every output of the pass (its commit certainly did not land).
func (p *pass) abort(ctx context.Context) error {
	err := deleteOutputs(ctx, p.t, p.outs)
	p.outs = nil
	return err
}

// pick is a bucket picked for compaction: the unit of files to rewrite.
type pick struct {
	split     read.Split
	unit      Unit
	inputs    []manifest.DataFileMeta // unit.Files()
	partition string                  // partition directory name
}

// planAndRewrite scans the latest snapshot, picks a unit per bucket (all picks first, so that the
// progress has its totals) and writes the units' outputs.
func planAndRewrite(ctx context.Context, t *table.Table, o Options, s Strategy, filter func([]any) bool, attempt int) (_ *pass, err error) {
	p := &pass{t: t}
	plan, err := read.Scan(ctx, t, read.ScanOptions{PartitionFilter: filter, AllLevels: true})
	if err != nil {
		return nil, err
	}
	if plan.Snapshot == nil {
		return p, nil
	}
	if err := checkSchemaCurrent(t, plan); err != nil {
		return nil, err
	}
	p.res.BaseID = plan.Snapshot.ID
	defer func() {
		if err != nil {
			err = errors.Join(err, p.abort(ctx))
		}
	}()
	dvIndex, err := deletionVectorIndex(ctx, t, plan.Snapshot)
	if err != nil {
		return nil, err
	}
	reader, err := read.NewReader(t, t.Schema)
	if err != nil {
		return nil, err
	}
	keyTypes := t.KeyTypes()
	keyLess := func(a, b manifest.DataFileMeta) bool {
		x, err1 := binrow.Deserialize(keyTypes, a.MinKey)
		y, err2 := binrow.Deserialize(keyTypes, b.MinKey)
		return err1 == nil && err2 == nil && binrow.CompareRows(keyTypes, x, y) < 0
	}
	var picks []pick
	for _, split := range plan.Splits {
		p.res.FilesBefore += len(split.Files)
		unit, ok := pickUnit(t, o, s, split, keyLess)
		if !ok {
			p.res.FilesAfter += len(split.Files)
			continue
		}
		part, err := partitionName(t, split.Partition)
		if err != nil {
			return nil, err
		}
		picks = append(picks, pick{split: split, unit: unit, inputs: unit.Files(), partition: part})
	}
	prog := &progress{fn: o.Progress}
	prog.plan(attempt, picks)
	for _, pk := range picks {
		split, unit, inputs := pk.split, pk.unit, pk.inputs
		prog.start(pk)
		outputs, err := p.rewrite(ctx, t, o, reader, split, unit, dropRetracts(unit, split.Files), prog)
		if err != nil {
			return nil, err
		}
		prog.done(pk, outputs)
		msg := table.CommitMessage{Partition: split.Partition, Bucket: split.Bucket, TotalBuckets: split.TotalBuckets,
			DeletedFiles: inputs, NewFiles: outputs}
		if len(inputs) == len(split.Files) {
			// The whole bucket is rewritten: its deletion vectors have all been applied.
			msg.DeletedIndexFiles = dvIndex[bucketID{string(split.Partition), split.Bucket}]
		}
		p.msgs = append(p.msgs, msg)
		p.res.FilesAfter += len(split.Files) - len(inputs) + len(outputs)
		p.res.Buckets = append(p.res.Buckets, BucketResult{Partition: pk.partition, Bucket: split.Bucket, OutputLevel: unit.OutputLevel,
			Inputs: len(inputs), Outputs: len(outputs)})
	}
	return p, nil
}

// pickUnit decides what to compact in one bucket.
func pickUnit(t *table.Table, o Options, s Strategy, split read.Split, keyLess func(a, b manifest.DataFileMeta) bool) (Unit, bool) {
	if !t.HasPrimaryKey() {
		return pickAppend(t, o, s, split.Files)
	}
	runs := SortedRuns(split.Files, keyLess)
	if fullRewriteOnly(t) {
		hasL0 := len(runs) > 0 && runs[0].Level == 0
		if !hasL0 && !o.Full {
			return Unit{}, false
		}
		return s.PickFull(runs)
	}
	if o.Full {
		return s.PickFull(runs)
	}
	return s.Pick(runs)
}

// dropRetracts is MergeTreeCompactManager's dropDelete: the output is not level 0 and no file of
// the bucket sits above it.
func dropRetracts(u Unit, all []manifest.DataFileMeta) bool {
	var highest int32
	for _, f := range all {
		highest = max(highest, f.Level)
	}
	return u.OutputLevel != 0 && u.OutputLevel >= highest
}

// rewrite merges the unit's files (read path: merge engine, deletion vectors) into one sorted run at
// the unit's output level. Records stream from the merge (one record batch per input run) into the
// rolling writer, which holds at most one row group; a failed rewrite deletes what it wrote.
func (p *pass) rewrite(ctx context.Context, t *table.Table, o Options, r *read.Reader, split read.Split, u Unit, drop bool, prog *progress) ([]manifest.DataFileMeta, error) {
	w, err := write.NewRunWriter(t, split.Partition, split.Bucket, u.OutputLevel, o.Now)
	if err != nil {
		return nil, err
	}
	sub := split
	sub.Files = u.Files()
	if !t.HasPrimaryKey() {
		drop = false
	}
	add := func(kv mergetree.KeyValue) error { return w.Add(ctx, kv) }
	if prog.fn != nil {
		add = func(kv mergetree.KeyValue) error { prog.merged(); return w.Add(ctx, kv) }
	}
	if err := r.ReadKeyValues(ctx, sub, drop, add); err != nil {
		err = fmt.Errorf("compact bucket %d of %s: %w", split.Bucket, t.Path, err)
		if aerr := w.Abort(ctx); aerr != nil {
			err = fmt.Errorf("%w (and removing its outputs: %v)", err, aerr)
		}
		return nil, err
	}
	files, err := closeRun(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("compact bucket %d of %s: %w", split.Bucket, t.Path, err)
	}
	p.outs = append(p.outs, outputs{partition: split.Partition, bucket: split.Bucket, files: files})
	return files, nil
}

type bucketID struct {
	part   string
	bucket int32
}

// deletionVectorIndex returns the live DELETION_VECTORS index entries of s by bucket.
func deletionVectorIndex(ctx context.Context, t *table.Table, s *spec.Snapshot) (map[bucketID][]manifest.IndexManifestEntry, error) {
	out := map[bucketID][]manifest.IndexManifestEntry{}
	if s.IndexManifest == nil || *s.IndexManifest == "" {
		return out, nil
	}
	entries, err := index.ReadManifest(ctx, t, *s.IndexManifest)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Kind == manifest.Add && e.IndexType == manifest.IndexTypeDeletionVectors {
			k := bucketID{string(e.Partition), e.Bucket}
			out[k] = append(out[k], e)
		}
	}
	return out, nil
}

// partitionName renders a partition as its directory name.
func partitionName(t *table.Table, part []byte) (string, error) {
	fields := t.PartitionFields()
	if len(fields) == 0 {
		return "", nil
	}
	vals, err := binrow.Deserialize(t.PartitionTypes(), part)
	if err != nil {
		return "", fmt.Errorf("partition of %s: %w", t.Path, err)
	}
	return spec.PartitionPath(fields, vals, t.Options.PartitionDefaultName(), t.Options.PartitionLegacyName())
}

// checkSchemaCurrent refuses a plan holding files (or a snapshot) of a schema newer than t's: rewriting
// them with t's older schema would drop the columns added since. Reopen the table and compact again.
func checkSchemaCurrent(t *table.Table, plan *read.Plan) error {
	newer := plan.Snapshot.SchemaID
	for _, sp := range plan.Splits {
		for _, f := range sp.Files {
			newer = max(newer, f.SchemaID)
		}
	}
	if newer > t.Schema.ID {
		return fmt.Errorf("compact %s: the table has data of schema %d, newer than schema %d this compaction was opened with; "+
			"reopen the table and compact again", t.Path, newer, t.Schema.ID)
	}
	return nil
}
