package read

import (
	"context"
	"fmt"
	"sort"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// ScanOptions select what a scan reads.
type ScanOptions struct {
	// SnapshotID selects the snapshot (time travel); 0 means the latest.
	SnapshotID int64
	// PartitionFilter, if set, keeps only partitions whose values (partition-key order) it accepts.
	PartitionFilter func(values []any) bool
	// BucketFilter, if set, keeps only buckets it accepts.
	BucketFilter func(bucket int32) bool
	// AllLevels keeps level-0 files that Java's batch scan skips (deletion vectors, first-row): a
	// compaction's view of the table.
	AllLevels bool
	// Filter, if set, leaves out partitions, buckets and data files in which no row can satisfy it
	// (Plan.Pruned counts them). It must be parsed over the fields of the schema the scan reads in
	// (SchemaAt). The plan's files may still hold rows it rejects: apply Filter.Eval to the rows read
	// (Rows does), after merging for primary-key tables.
	Filter *Predicate
}

// DeletionFile locates the deletion vector of one data file.
type DeletionFile struct {
	IndexFile string // file name in <table>/index
	Meta      manifest.DeletionVectorMeta
}

// Split is the unit of reading: the live files of one (partition, bucket).
type Split struct {
	Partition    []byte
	Bucket       int32
	TotalBuckets int32
	Files        []manifest.DataFileMeta
	Deletions    map[string]DeletionFile // by data file name
}

// Plan is the result of a scan.
type Plan struct {
	Snapshot *spec.Snapshot    // nil when the table has no snapshot
	Schema   *spec.TableSchema // schema rows are read in: the table's, or the snapshot's for time travel
	Splits   []Split
	Pruned   Pruned // what ScanOptions.Filter left out
}

// SkipsLevel0 reports whether Java's batch scans ignore level-0 files of t.
func SkipsLevel0(t *table.Table) bool {
	if !t.HasPrimaryKey() {
		return false
	}
	dv := t.Options.DeletionVectorsEnabled()
	if dv {
		mor, _ := t.Options.DeletionVectorsMergeOnRead() // malformed: false, Java's default
		return !mor
	}
	return t.Options.MergeEngine() == "first-row"
}

// Scan plans a read of t.
func Scan(ctx context.Context, t *table.Table, o ScanOptions) (*Plan, error) {
	snaps := t.Snapshots()
	var snap *spec.Snapshot
	var err error
	if o.SnapshotID > 0 {
		if snap, err = snaps.Get(ctx, o.SnapshotID); err != nil {
			return nil, fmt.Errorf("snapshot %d of %s: %w", o.SnapshotID, t.Path, err)
		}
	} else if snap, err = snaps.Latest(ctx); err != nil {
		return nil, err
	}
	plan := &Plan{Snapshot: snap, Schema: t.Schema}
	if snap == nil {
		return plan, nil
	}
	if o.SnapshotID > 0 && snap.SchemaID != t.Schema.ID {
		// Java's time travel reads a snapshot with the schema it was committed with.
		if plan.Schema, err = t.Schemas().Get(ctx, snap.SchemaID); err != nil {
			return nil, err
		}
	}
	live, err := t.LiveFiles(ctx, snap)
	if err != nil {
		return nil, err
	}
	deletions, err := deletionFiles(ctx, t, snap)
	if err != nil {
		return nil, err
	}
	var prune *pruner
	if o.Filter != nil {
		if prune, err = newPruner(t, plan.Schema, o.Filter); err != nil {
			return nil, err
		}
	}
	skip0 := SkipsLevel0(t)
	partTypes := t.PartitionTypes()
	partOK := map[string]bool{}
	type key struct {
		part   string
		bucket int32
	}
	groups := map[key]*Split{}
	var order []key
	for _, e := range live {
		if skip0 && e.File.Level == 0 && !o.AllLevels {
			continue
		}
		if e.Bucket < 0 && e.Bucket != -1 {
			continue // postpone bucket: invisible to batch reads, as in Java
		}
		if o.BucketFilter != nil && !o.BucketFilter(e.Bucket) {
			continue
		}
		if o.PartitionFilter != nil {
			ok, seen := partOK[string(e.Partition)]
			if !seen {
				vals, err := binrow.Deserialize(partTypes, e.Partition)
				if err != nil {
					return nil, fmt.Errorf("partition of %s: %w", e.File.FileName, err)
				}
				ok = o.PartitionFilter(vals)
				partOK[string(e.Partition)] = ok
			}
			if !ok {
				continue
			}
		}
		if prune != nil {
			keep, err := prune.keep(e)
			if err != nil {
				return nil, err
			}
			if !keep {
				continue
			}
		}
		k := key{string(e.Partition), e.Bucket}
		s := groups[k]
		if s == nil {
			s = &Split{Partition: e.Partition, Bucket: e.Bucket, TotalBuckets: e.TotalBuckets}
			groups[k] = s
			order = append(order, k)
		}
		s.Files = append(s.Files, e.File)
		if d, ok := deletions[dvKey{string(e.Partition), e.Bucket, e.File.FileName}]; ok {
			if s.Deletions == nil {
				s.Deletions = map[string]DeletionFile{}
			}
			s.Deletions[e.File.FileName] = d
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].part != order[j].part {
			return order[i].part < order[j].part
		}
		return order[i].bucket < order[j].bucket
	})
	for _, k := range order {
		plan.Splits = append(plan.Splits, *groups[k])
	}
	if prune != nil {
		plan.Pruned = prune.out
	}
	return plan, nil
}

type dvKey struct {
	part   string
	bucket int32
	file   string
}

// deletionFiles reads the snapshot's index manifest for deletion vectors.
func deletionFiles(ctx context.Context, t *table.Table, s *spec.Snapshot) (map[dvKey]DeletionFile, error) {
	out := map[dvKey]DeletionFile{}
	if s.IndexManifest == nil || *s.IndexManifest == "" {
		return out, nil
	}
	path, err := t.MetaFile(table.DirManifest, *s.IndexManifest, fmt.Sprintf("snapshot %d (indexManifest)", s.ID))
	if err != nil {
		return nil, err
	}
	f, err := t.FS.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open index manifest %s: %w", *s.IndexManifest, err)
	}
	defer f.Close()
	entries, err := manifest.ReadIndexManifest(f)
	if err != nil {
		return nil, fmt.Errorf("index manifest %s: %w", *s.IndexManifest, err)
	}
	for _, e := range entries {
		if err := t.CheckIndexEntry(e, "index manifest "+*s.IndexManifest); err != nil {
			return nil, err
		}
		if e.Kind != manifest.Add || e.IndexType != "DELETION_VECTORS" {
			continue
		}
		for _, r := range e.DeletionVectorRanges {
			out[dvKey{string(e.Partition), e.Bucket, r.DataFileName}] = DeletionFile{IndexFile: e.FileName, Meta: r}
		}
	}
	return out, nil
}
