package index

import (
	"context"
	"fmt"
	"sort"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// ReadManifest reads the index manifest named name of table t (all its entries).
// A name that is no file of manifest/, and an entry naming an index file outside the table, are a
// *table.PathError (spec.ErrCorrupt).
func ReadManifest(ctx context.Context, t *table.Table, name string) ([]manifest.IndexManifestEntry, error) {
	path, err := t.MetaFile(table.DirManifest, name, "a snapshot's index manifest name")
	if err != nil {
		return nil, err
	}
	f, err := t.FS.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open index manifest %s: %w", name, err)
	}
	defer f.Close()
	es, err := manifest.ReadIndexManifest(f)
	if err != nil {
		return nil, fmt.Errorf("index manifest %s: %w", name, err)
	}
	for _, e := range es {
		if err := t.CheckIndexEntry(e, "index manifest "+name); err != nil {
			return nil, err
		}
	}
	return es, nil
}

// SnapshotEntries returns the index files live in snapshot s (nil s or no index manifest: none).
func SnapshotEntries(ctx context.Context, t *table.Table, s *spec.Snapshot) ([]manifest.IndexManifestEntry, error) {
	if s == nil || s.IndexManifest == nil || *s.IndexManifest == "" {
		return nil, nil
	}
	es, err := ReadManifest(ctx, t, *s.IndexManifest)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Kind != manifest.Add {
			return nil, fmt.Errorf("%w: index manifest %s of snapshot %d holds a DELETE entry for %s; a snapshot's index manifest lists live files only",
				spec.ErrCorrupt, *s.IndexManifest, s.ID, e.FileName)
		}
	}
	return es, nil
}

// Bucketed reports whether index files of type typ are replaced per (partition, bucket, type):
// HASH always, DELETION_VECTORS unless the table is bucket-unaware (Java IndexManifestFileHandler).
// Other types are combined by file name.
func Bucketed(typ string, bucketUnaware bool) bool {
	return typ == manifest.IndexTypeHash || (typ == manifest.IndexTypeDeletionVectors && !bucketUnaware)
}

type slot struct {
	part   string
	bucket int32
	typ    string
}

// Combine applies changes (ADD and DELETE entries) to prev, the live index files, and returns the
// new full list, as Java's IndexManifestFileHandler.write does: bucketed types drop the entry of a
// DELETE's (partition, bucket, type), then an ADD replaces that slot's entry; other types are
// keyed by file name, and deleting a file that is not live or adding one twice is an error.
// The result is sorted by (partition, bucket, type, file name).
func Combine(prev, changes []manifest.IndexManifestEntry, bucketUnaware bool) ([]manifest.IndexManifestEntry, error) {
	bySlot := map[slot]manifest.IndexManifestEntry{}
	byName := map[string]manifest.IndexManifestEntry{}
	for _, e := range prev {
		if Bucketed(e.IndexType, bucketUnaware) {
			bySlot[slot{string(e.Partition), e.Bucket, e.IndexType}] = e
		} else {
			byName[e.FileName] = e
		}
	}
	for _, pass := range []manifest.FileKind{manifest.Delete, manifest.Add} {
		for _, e := range changes {
			if e.Kind != pass {
				continue
			}
			if Bucketed(e.IndexType, bucketUnaware) {
				k := slot{string(e.Partition), e.Bucket, e.IndexType}
				if pass == manifest.Delete {
					delete(bySlot, k)
				} else {
					bySlot[k] = e
				}
				continue
			}
			_, live := byName[e.FileName]
			switch {
			case pass == manifest.Delete && !live:
				return nil, fmt.Errorf("index file %s (%s, bucket %d) is deleted but not live", e.FileName, e.IndexType, e.Bucket)
			case pass == manifest.Add && live:
				return nil, fmt.Errorf("index file %s (%s, bucket %d) is added twice", e.FileName, e.IndexType, e.Bucket)
			case pass == manifest.Delete:
				delete(byName, e.FileName)
			default:
				byName[e.FileName] = e
			}
		}
	}
	out := make([]manifest.IndexManifestEntry, 0, len(bySlot)+len(byName))
	for _, e := range bySlot {
		e.Kind = manifest.Add
		out = append(out, e)
	}
	for _, e := range byName {
		e.Kind = manifest.Add
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if string(a.Partition) != string(b.Partition) {
			return string(a.Partition) < string(b.Partition)
		}
		if a.Bucket != b.Bucket {
			return a.Bucket < b.Bucket
		}
		if a.IndexType != b.IndexType {
			return a.IndexType < b.IndexType
		}
		return a.FileName < b.FileName
	})
	return out, nil
}
