package read

import (
	"context"
	"fmt"

	"github.com/lakeload/lakeload/paimon/mergetree"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// ReadKeyValues calls emit with the records of s as a compaction consumes them: for primary-key
// splits merged by key with the table's merge function, in key order, with sequence numbers and
// kinds, deletion vectors applied; dropRetracts=false keeps retract results (output below the
// bucket's highest level). Files are never concatenated raw across key sections, so the order holds
// however the split lists its files. Append splits yield every row of every file in order.
// emit may keep the KeyValue.
func (r *Reader) ReadKeyValues(ctx context.Context, s Split, dropRetracts bool, emit func(mergetree.KeyValue) error) error {
	if r.merge == nil {
		for _, f := range s.Files {
			if err := r.files.read(ctx, s, f, emit); err != nil {
				return err
			}
		}
		return nil
	}
	return r.mergeSections(ctx, s, dropRetracts, emit, nil)
}

// mergeSections reads a primary-key split section by section (mergetree.IntervalPartition): a
// section of one file without retract rows as is (through asIs when not nil), others sort-merged.
func (r *Reader) mergeSections(ctx context.Context, s Split, dropRetracts bool, emit func(mergetree.KeyValue) error,
	asIs func(manifest.DataFileMeta, func(mergetree.KeyValue) error) error) error {
	if asIs == nil {
		asIs = func(f manifest.DataFileMeta, emit func(mergetree.KeyValue) error) error {
			return r.files.read(ctx, s, f, emit)
		}
	}
	keyTypes := keyTypesOf(r.schema)
	ranges := make([]mergetree.FileRange, len(s.Files))
	for i, f := range s.Files {
		lo, err := binrow.Deserialize(keyTypes, f.MinKey)
		if err != nil {
			return fmt.Errorf("min key of %s: %w", f.FileName, err)
		}
		hi, err := binrow.Deserialize(keyTypes, f.MaxKey)
		if err != nil {
			return fmt.Errorf("max key of %s: %w", f.FileName, err)
		}
		ranges[i] = mergetree.FileRange{ID: i, MinKey: lo, MaxKey: hi}
	}
	for _, section := range mergetree.IntervalPartition(r.merge, ranges) {
		if len(section) == 1 && len(section[0]) == 1 && !hasRetracts(s.Files[section[0][0].ID]) {
			if err := asIs(s.Files[section[0][0].ID], emit); err != nil {
				return err
			}
			continue
		}
		if err := r.mergeSection(ctx, s, section, dropRetracts, emit); err != nil {
			return err
		}
	}
	return nil
}

// mergeSection sort-merges the sorted runs of one section, each read one record batch at a time;
// together the runs hold about mergeRows records (one batch of at least minMergeBatch rows per run).
func (r *Reader) mergeSection(ctx context.Context, s Split, section [][]mergetree.FileRange, dropRetracts bool,
	emit func(mergetree.KeyValue) error) error {
	runs := make([]mergetree.Run, len(section))
	for i, run := range section {
		files := make([]manifest.DataFileMeta, len(run))
		for j, fr := range run {
			files[j] = s.Files[fr.ID]
		}
		fr := r.files.run(ctx, s, files, len(section))
		defer fr.Close()
		runs[i] = fr
	}
	merge := mergetree.Merge
	if !dropRetracts {
		merge = mergetree.MergeKeepingRetracts
	}
	return merge(r.merge, runs, emit)
}
