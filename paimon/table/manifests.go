package table

import (
	"context"
	"fmt"
	"iter"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
)

// Reading manifests: every name a manifest list or manifest holds is checked (MetaFile,
// CheckEntry) before it is returned, so no caller sees a name outside the table. Writing them is
// paimon/commit's.

// ReadManifestList reads the manifest list name. A name that is no file of manifest/, and a list
// naming such a manifest, are a *PathError (spec.ErrCorrupt).
func (t *Table) ReadManifestList(ctx context.Context, name string) ([]manifest.ManifestFileMeta, error) {
	path, err := t.MetaFile(DirManifest, name, "a snapshot's manifest list name")
	if err != nil {
		return nil, err
	}
	f, err := t.FS.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open manifest list %s: %w", name, err)
	}
	defer f.Close()
	metas, err := manifest.ReadManifestList(f)
	if err != nil {
		return nil, fmt.Errorf("manifest list %s: %w", name, err)
	}
	for _, m := range metas {
		if _, err := t.MetaFile(DirManifest, m.FileName, "manifest list "+name); err != nil {
			return nil, err
		}
	}
	return metas, nil
}

// ReadManifest reads the manifest file name. An entry naming a file outside the table
// (CheckEntry) is a *PathError (spec.ErrCorrupt) naming the manifest.
func (t *Table) ReadManifest(ctx context.Context, name string) ([]manifest.ManifestEntry, error) {
	path, err := t.MetaFile(DirManifest, name, "a manifest list's manifest name")
	if err != nil {
		return nil, err
	}
	f, err := t.FS.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open manifest %s: %w", name, err)
	}
	defer f.Close()
	entries, err := manifest.ReadManifest(f)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", name, err)
	}
	for _, e := range entries {
		if err := t.CheckEntry(e, "manifest "+name); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// DataManifests returns the manifests of snapshot s: base list, then delta list.
func (t *Table) DataManifests(ctx context.Context, s *spec.Snapshot) ([]manifest.ManifestFileMeta, error) {
	base, err := t.ReadManifestList(ctx, s.BaseManifestList)
	if err != nil {
		return nil, err
	}
	delta, err := t.ReadManifestList(ctx, s.DeltaManifestList)
	if err != nil {
		return nil, err
	}
	return append(base, delta...), nil
}

// LiveFiles returns the live data files of snapshot s (ADD entries not cancelled by a DELETE).
// Manifests are served from a cache of decoded manifests (manifest_cache.go).
func (t *Table) LiveFiles(ctx context.Context, s *spec.Snapshot) ([]manifest.ManifestEntry, error) {
	metas, err := t.DataManifests(ctx, s)
	if err != nil {
		return nil, err
	}
	var all []manifest.ManifestEntry
	for _, m := range metas {
		es, err := t.readManifestCached(ctx, m.FileName)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	return manifest.MergeEntries(all)
}

// DeltaEntries yields the entries of snapshot s's delta manifests (what s added and deleted), in
// manifest order, reading each manifest only when the one before it is used up. A read error is
// yielded once, with a zero entry, and ends the sequence:
//
//	for e, err := range t.DeltaEntries(ctx, s) {
//		if err != nil {
//			return err
//		}
//		…
//	}
func (t *Table) DeltaEntries(ctx context.Context, s *spec.Snapshot) iter.Seq2[manifest.ManifestEntry, error] {
	return func(yield func(manifest.ManifestEntry, error) bool) {
		metas, err := t.ReadManifestList(ctx, s.DeltaManifestList)
		if err != nil {
			yield(manifest.ManifestEntry{}, err)
			return
		}
		for _, m := range metas {
			entries, err := t.ReadManifest(ctx, m.FileName)
			if err != nil {
				yield(manifest.ManifestEntry{}, err)
				return
			}
			for _, e := range entries {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}
