package maintain

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// deletion deletes the files of expiring snapshots (Java SnapshotDeletion / FileDeletionBase).
// Reads of metadata of the snapshots being expired are tolerant, as in Java: a crash of an earlier
// run may have deleted some already, and a file that cannot be read is simply not deleted.
type deletion struct {
	t      *table.Table
	paths  *table.Paths
	dryRun bool
	res    *ExpireResult
	rep    *reporter // nil: no progress reports

	cachedTag int64            // id of the tag whose files tagFiles holds (0: none)
	tagFiles  map[fileKey]bool // data files of that tag
}

// fileKey identifies a data file within a table: partition bytes, bucket, name.
type fileKey struct {
	part   string
	bucket int32
	name   string
}

func keyOf(e manifest.ManifestEntry) fileKey {
	return fileKey{string(e.Partition), e.Bucket, e.File.FileName}
}

func newDeletion(t *table.Table, dryRun bool, res *ExpireResult) *deletion {
	return &deletion{t: t, paths: t.NewPaths(), dryRun: dryRun, res: res}
}

func (d *deletion) delete(ctx context.Context, path, kind string) error {
	if err := deleteFile(ctx, d.t, d.dryRun, Deleted{Path: path, Kind: kind}, &d.res.Files); err != nil {
		return err
	}
	d.rep.report()
	return nil
}

// tolerate returns nil for an error reading metadata of an expiring snapshot (Java skips it: an
// earlier run may have deleted the file), but err itself for a name that names no file of the table.
func tolerate(err error) error {
	if unsafeName(err) {
		return err
	}
	return nil
}

// dataPath is the path of an entry's data file (its external path when set).
func (d *deletion) dataPath(e manifest.ManifestEntry) (string, error) {
	return d.paths.DataFile(e.Partition, e.Bucket, e.File.FileName, e.File.ExternalPath)
}

// tagSkipper returns a predicate true for the data files of the last tag before snapshot id
// (Java createDataFileSkipperForTags). An error means the tag's files could not be read.
func (d *deletion) tagSkipper(ctx context.Context, tags []*spec.Snapshot, id int64) (func(manifest.ManifestEntry) bool, error) {
	i := previousTag(tags, id)
	if i < 0 {
		return func(manifest.ManifestEntry) bool { return false }, nil
	}
	if tags[i].ID != d.cachedTag {
		d.cachedTag, d.tagFiles = 0, nil
		entries, err := snapshotEntries(ctx, d.t, tags[i])
		if err != nil {
			return nil, err
		}
		merged, err := manifest.MergeKeepingDeletes(entries)
		if err != nil {
			return nil, err
		}
		d.tagFiles = make(map[fileKey]bool, len(merged))
		for _, e := range merged {
			d.tagFiles[keyOf(e)] = true
		}
		d.cachedTag = tags[i].ID
	}
	files := d.tagFiles
	return func(e manifest.ManifestEntry) bool { return files[keyOf(e)] }, nil
}

// snapshotEntries reads every entry of s's base and delta manifests, strictly.
func snapshotEntries(ctx context.Context, t *table.Table, s *spec.Snapshot) ([]manifest.ManifestEntry, error) {
	metas, err := t.DataManifests(ctx, s)
	if err != nil {
		return nil, err
	}
	var all []manifest.ManifestEntry
	for _, m := range metas {
		es, err := t.ReadManifest(ctx, m.FileName)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	return all, nil
}

// cleanUnusedDataFiles deletes the data files (and their extra files) that snapshot s's delta
// manifests DELETE and do not re-ADD, unless skip holds them. One unreadable manifest cancels it all.
func (d *deletion) cleanUnusedDataFiles(ctx context.Context, s *spec.Snapshot, skip func(manifest.ManifestEntry) bool) error {
	toDelete := map[string]manifest.ManifestEntry{}
	for e, err := range d.t.DeltaEntries(ctx, s) {
		if err != nil {
			return tolerate(err)
		}
		d.rep.examined(1)
		p, err := d.dataPath(e)
		if err != nil {
			return tolerate(err)
		}
		if e.Kind == manifest.Add {
			delete(toDelete, p) // an upgraded file: deleted at one level, added at another
		} else {
			toDelete[p] = e
		}
	}
	paths := make([]string, 0, len(toDelete))
	for p := range toDelete {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		e := toDelete[p]
		if skip(e) {
			continue
		}
		if err := d.delete(ctx, p, KindData); err != nil {
			return err
		}
		for _, x := range e.File.ExtraFiles {
			xp, err := d.t.ExtraFile(p, x, "an entry of delta manifest list "+s.DeltaManifestList)
			if err != nil {
				return err
			}
			if err := d.delete(ctx, xp, KindData); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteAddedFiles deletes the files a changelog manifest list ADDs (Java deleteAddedDataFiles).
func (d *deletion) deleteAddedFiles(ctx context.Context, list string) error {
	metas, err := d.t.ReadManifestList(ctx, list)
	if err != nil {
		return tolerate(err)
	}
	for _, m := range metas {
		entries, err := d.t.ReadManifest(ctx, m.FileName)
		if err != nil {
			if err := tolerate(err); err != nil {
				return err
			}
			continue
		}
		d.rep.examined(len(entries))
		for _, e := range entries {
			if e.Kind != manifest.Add {
				continue
			}
			p, err := d.dataPath(e)
			if err != nil {
				if err := tolerate(err); err != nil {
					return err
				}
				continue
			}
			if err := d.delete(ctx, p, KindChangelog); err != nil {
				return err
			}
		}
	}
	return nil
}

// skippingSet names the metadata files the snapshots use: manifest lists, manifests, index
// manifest and index files, statistics (Java manifestSkippingSet). Reads are strict.
func (d *deletion) skippingSet(ctx context.Context, snaps []*spec.Snapshot) (map[string]bool, error) {
	keep := map[string]bool{}
	for _, s := range snaps {
		keep[s.BaseManifestList], keep[s.DeltaManifestList] = true, true
		metas, err := d.t.DataManifests(ctx, s)
		if err != nil {
			return nil, err
		}
		for _, m := range metas {
			keep[m.FileName] = true
		}
		if s.IndexManifest != nil && *s.IndexManifest != "" {
			keep[*s.IndexManifest] = true
			entries, err := index.ReadManifest(ctx, d.t, *s.IndexManifest)
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				keep[e.FileName] = true
			}
		}
		if s.Statistics != nil {
			keep[*s.Statistics] = true
		}
	}
	return keep, nil
}

// cleanUnusedMetadata deletes the manifest lists, manifests, index manifest, index files and
// statistics file of expired snapshot s that keep does not name (Java cleanUnusedManifests).
func (d *deletion) cleanUnusedMetadata(ctx context.Context, s *spec.Snapshot, keep map[string]bool) error {
	lists := []string{s.BaseManifestList, s.DeltaManifestList}
	if s.ChangelogManifestList != nil && *s.ChangelogManifestList != "" {
		lists = append(lists, *s.ChangelogManifestList)
	}
	for _, l := range lists {
		if err := d.cleanUnusedManifestList(ctx, l, keep); err != nil {
			return err
		}
	}
	if s.IndexManifest != nil && *s.IndexManifest != "" {
		entries, err := index.ReadManifest(ctx, d.t, *s.IndexManifest)
		if errors.Is(err, fileio.ErrNotExist) {
			entries, err = nil, nil // deleted with another snapshot or by an earlier run
		} else if err != nil {
			return err
		} else {
			for _, e := range entries {
				if keep[e.FileName] {
					continue
				}
				keep[e.FileName] = true
				p, err := index.FilePath(d.t, e)
				if err != nil {
					return err
				}
				if err := d.delete(ctx, p, KindIndex); err != nil {
					return err
				}
			}
			if !keep[*s.IndexManifest] {
				keep[*s.IndexManifest] = true
				p, err := d.t.MetaFile(table.DirManifest, *s.IndexManifest, fmt.Sprintf("snapshot %d (indexManifest)", s.ID))
				if err != nil {
					return err
				}
				if err := d.delete(ctx, p, KindIndexManifest); err != nil {
					return err
				}
			}
		}
	}
	if s.Statistics != nil && *s.Statistics != "" && !keep[*s.Statistics] {
		keep[*s.Statistics] = true
		p, err := d.t.MetaFile(table.DirStatistics, *s.Statistics, fmt.Sprintf("snapshot %d (statistics)", s.ID))
		if err != nil {
			return err
		}
		if err := d.delete(ctx, p, KindStatistics); err != nil {
			return err
		}
	}
	return nil
}

// cleanUnusedManifestList deletes the manifests of list that keep does not name, then the list.
func (d *deletion) cleanUnusedManifestList(ctx context.Context, list string, keep map[string]bool) error {
	metas, err := d.t.ReadManifestList(ctx, list) // tolerant: an earlier run may have deleted it
	if err := tolerate(err); err != nil {
		return err
	}
	for _, m := range metas {
		if keep[m.FileName] {
			continue
		}
		keep[m.FileName] = true
		p, err := d.t.MetaFile(table.DirManifest, m.FileName, "manifest list "+list)
		if err != nil {
			return err
		}
		if err := d.delete(ctx, p, KindManifest); err != nil {
			return err
		}
	}
	if !keep[list] {
		keep[list] = true
		p, err := d.t.MetaFile(table.DirManifest, list, "an expired snapshot's manifest list name")
		if err != nil {
			return err
		}
		return d.delete(ctx, p, KindManifestList)
	}
	return nil
}
