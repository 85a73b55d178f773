package commit

import (
	"bytes"
	"context"
	"fmt"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// indexChanges collects the index files the messages delete and add, with the partition and
// bucket of their message.
func indexChanges(msgs []table.CommitMessage) []manifest.IndexManifestEntry {
	var out []manifest.IndexManifestEntry
	for _, m := range msgs {
		for _, kind := range []manifest.FileKind{manifest.Delete, manifest.Add} {
			files := m.NewIndexFiles
			if kind == manifest.Delete {
				files = m.DeletedIndexFiles
			}
			for _, e := range files {
				e.Kind, e.Partition, e.Bucket = kind, m.Partition, m.Bucket
				out = append(out, e)
			}
		}
	}
	return out
}

// planIndex returns the index manifest of the snapshot committed on top of latest: latest's own
// when the commit changes no index file, else a new full index manifest with the changes applied
// (index.Combine), after checking them against latest (checkIndexConflicts).
func planIndex(ctx context.Context, t *table.Table, mio manifestIO, latest *spec.Snapshot, changes []manifest.IndexManifestEntry) (*string, error) {
	var prevName *string
	if latest != nil {
		prevName = latest.IndexManifest
	}
	if len(changes) == 0 {
		return prevName, nil
	}
	prev, err := index.SnapshotEntries(ctx, t, latest)
	if err != nil {
		return nil, err
	}
	if err := checkIndexConflicts(ctx, t, prev, changes); err != nil {
		return nil, err
	}
	all, err := index.Combine(prev, changes, bucketUnaware(t))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}
	var buf bytes.Buffer
	if err := manifest.WriteIndexManifest(&buf, all); err != nil {
		return nil, err
	}
	name := mio.paths.NewIndexManifestName()
	if err := fileio.WriteFile(ctx, t.FS, mio.path(name), buf.Bytes()); err != nil {
		return nil, fmt.Errorf("write index manifest %s: %w", name, err)
	}
	return &name, nil
}

func bucketUnaware(t *table.Table) bool { return t.Options.Bucket() == -1 && !t.HasPrimaryKey() }

// checkIndexConflicts refuses index changes computed against an index state that another commit
// has changed since (Java checks none of this for HASH files: it allows one writer per
// dynamic-bucket table; lakeload checks so that a concurrent writer is caught instead of silently
// losing keys):
//   - every index file deleted must still be live (for bucketed types: still its slot's file);
//   - a HASH file added for a (partition, bucket) that has a live HASH file must delete that file;
//   - no key hash of an added HASH file may be in the live HASH file of another bucket of the
//     partition that this commit neither replaces nor deletes (a key in two buckets).
func checkIndexConflicts(ctx context.Context, t *table.Table, prev, changes []manifest.IndexManifestEntry) error {
	type slot struct {
		part   string
		bucket int32
		typ    string
	}
	unaware := bucketUnaware(t)
	liveByName := map[string]manifest.IndexManifestEntry{}
	liveBySlot := map[slot]manifest.IndexManifestEntry{}
	for _, e := range prev {
		liveByName[e.FileName] = e
		if index.Bucketed(e.IndexType, unaware) {
			liveBySlot[slot{string(e.Partition), e.Bucket, e.IndexType}] = e
		}
	}
	deleted := map[slot]string{}
	deletedNames := map[string]bool{}
	for _, e := range changes {
		if e.Kind != manifest.Delete {
			continue
		}
		deletedNames[e.FileName] = true
		k := slot{string(e.Partition), e.Bucket, e.IndexType}
		live, ok := liveByName[e.FileName]
		if ok && index.Bucketed(e.IndexType, unaware) {
			ok = liveBySlot[k].FileName == e.FileName && live.Bucket == e.Bucket && string(live.Partition) == string(e.Partition)
		}
		if !ok {
			return fmt.Errorf("%w: %s index file %s of bucket %d is no longer live: another writer replaced it after this commit's index was computed; recompute the write",
				ErrConflict, e.IndexType, e.FileName, e.Bucket)
		}
		deleted[k] = e.FileName
	}
	hashAdds := map[string][]manifest.IndexManifestEntry{}
	for _, e := range changes {
		if e.Kind != manifest.Add || e.IndexType != manifest.IndexTypeHash {
			continue
		}
		k := slot{string(e.Partition), e.Bucket, e.IndexType}
		if live, ok := liveBySlot[k]; ok && deleted[k] != live.FileName {
			return fmt.Errorf("%w: bucket %d got HASH index file %s from another writer after this commit's index was computed (this commit adds %s without replacing it); recompute the write",
				ErrConflict, e.Bucket, live.FileName, e.FileName)
		}
		hashAdds[string(e.Partition)] = append(hashAdds[string(e.Partition)], e)
	}
	for part, adds := range hashAdds {
		replaced := map[int32]bool{}
		for _, e := range adds {
			replaced[e.Bucket] = true
		}
		owner := map[int32]int32{}
		for _, e := range prev {
			if e.IndexType != manifest.IndexTypeHash || string(e.Partition) != part || replaced[e.Bucket] || deletedNames[e.FileName] {
				continue
			}
			hs, err := index.ReadHashFile(ctx, t, e)
			if err != nil {
				return err
			}
			for _, h := range hs {
				owner[h] = e.Bucket
			}
		}
		for _, e := range adds {
			hs, err := index.ReadHashFile(ctx, t, e)
			if err != nil {
				return err
			}
			for _, h := range hs {
				if b, ok := owner[h]; ok && b != e.Bucket {
					return fmt.Errorf("%w: key hash %d is assigned to bucket %d by this commit (HASH index file %s) but to bucket %d by another writer's commit; "+
						"a key must stay in one bucket: recompute the write", ErrConflict, h, e.Bucket, e.FileName, b)
				}
				owner[h] = e.Bucket
			}
		}
	}
	return nil
}
