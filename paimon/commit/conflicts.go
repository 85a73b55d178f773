package commit

import (
	"context"
	"fmt"
	"sort"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/binrow"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// checkConflicts runs Java's ConflictDetection checks when the commit deletes files or is not a plain
// APPEND: every deleted file must still be live, the bucket count of a partition must not change
// (unless OVERWRITE), and for primary-key tables files on one level ≥ 1 of a bucket must not overlap.
func checkConflicts(ctx context.Context, t *table.Table, base []manifest.ManifestFileMeta, entries []manifest.ManifestEntry, kind spec.CommitKind) error {
	hasDelete := false
	for _, e := range entries {
		if e.Kind == manifest.Delete {
			hasDelete = true
			break
		}
	}
	if !hasDelete && kind == spec.CommitKindAppend {
		return nil
	}
	var all []manifest.ManifestEntry
	for _, m := range base {
		es, err := t.ReadManifest(ctx, m.FileName)
		if err != nil {
			return err
		}
		all = append(all, es...)
	}
	live, err := manifest.MergeEntries(all)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	for _, e := range entries {
		touched[string(e.Partition)] = true
	}
	liveIDs := map[string]bool{}
	buckets := map[string]int32{}
	var merged []manifest.ManifestEntry
	for _, e := range live {
		if !touched[string(e.Partition)] {
			continue
		}
		liveIDs[e.Identifier()] = true
		buckets[string(e.Partition)] = e.TotalBuckets
		merged = append(merged, e)
	}
	for _, e := range entries {
		if e.Kind == manifest.Delete && !liveIDs[e.Identifier()] {
			return fmt.Errorf("%w: file deletion conflicts detected: %s is no longer live (another writer changed bucket %d)",
				ErrConflict, e.File.FileName, e.Bucket)
		}
		if n, ok := buckets[string(e.Partition)]; ok && e.Kind == manifest.Add && n != e.TotalBuckets && kind != spec.CommitKindOverwrite {
			return fmt.Errorf("%w: total buckets of a partition changed from %d to %d", ErrConflict, n, e.TotalBuckets)
		}
	}
	// As Java: the delta alone must merge (a commit may not delete and add the same file), and no DELETE
	// may survive merging it onto the live files (e.g. one file deleted twice in one commit).
	if _, err := manifest.MergeEntries(entries); err != nil {
		return fmt.Errorf("%w: commit adds and deletes the same file: %v", ErrConflict, err)
	}
	merged = append(merged, entries...)
	afterAll, err := manifest.MergeKeepingDeletes(merged)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConflict, err)
	}
	var after []manifest.ManifestEntry
	for _, e := range afterAll {
		if e.Kind == manifest.Delete {
			return fmt.Errorf("%w: file deletion conflicts detected: %s is no longer live (deleted twice, or another writer changed bucket %d)",
				ErrConflict, e.File.FileName, e.Bucket)
		}
		after = append(after, e)
	}
	if len(t.Schema.PrimaryKeys) == 0 {
		return nil
	}
	return checkKeyRanges(t.KeyTypes(), after)
}

// checkKeyRanges verifies that files of one (partition, bucket, level ≥ 1) have disjoint key ranges.
func checkKeyRanges(keyTypes []spec.DataType, live []manifest.ManifestEntry) error {
	type group struct {
		part   string
		bucket int32
		level  int32
	}
	type span struct {
		name     string
		min, max []any
	}
	groups := map[group][]span{}
	for _, e := range live {
		if e.File.Level < 1 {
			continue
		}
		lo, err := binrow.Deserialize(keyTypes, e.File.MinKey)
		if err != nil {
			return fmt.Errorf("min key of %s: %w", e.File.FileName, err)
		}
		hi, err := binrow.Deserialize(keyTypes, e.File.MaxKey)
		if err != nil {
			return fmt.Errorf("max key of %s: %w", e.File.FileName, err)
		}
		g := group{string(e.Partition), e.Bucket, e.File.Level}
		groups[g] = append(groups[g], span{e.File.FileName, lo, hi})
	}
	for g, spans := range groups {
		sort.Slice(spans, func(i, j int) bool { return binrow.CompareRows(keyTypes, spans[i].min, spans[j].min) < 0 })
		for i := 1; i < len(spans); i++ {
			if binrow.CompareRows(keyTypes, spans[i-1].max, spans[i].min) >= 0 {
				return fmt.Errorf("%w: LSM conflicts detected: files %s and %s overlap on level %d of bucket %d",
					ErrConflict, spans[i-1].name, spans[i].name, g.level, g.bucket)
			}
		}
	}
	return nil
}

// mergeManifests compacts the base manifests once there are at least manifest.merge-min-count of them:
// all entries are merged (ADD/DELETE pairs cancel) and rewritten. Existing manifests are left in place
// for older snapshots.
func mergeManifests(ctx context.Context, t *table.Table, mio manifestIO, base []manifest.ManifestFileMeta) ([]manifest.ManifestFileMeta, error) {
	if len(base) < max(2, t.Options.ManifestMergeMinCount()) {
		return base, nil
	}
	var all []manifest.ManifestEntry
	for _, m := range base {
		es, err := t.ReadManifest(ctx, m.FileName)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	live, err := manifest.MergeEntries(all)
	if err != nil {
		return nil, err
	}
	if len(live) == 0 {
		return nil, nil
	}
	return mio.writeManifests(ctx, live, manifestChunk)
}
