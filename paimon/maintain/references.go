package maintain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/index"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// usage collects the names of the files snapshots reference.
type usage struct {
	t         *table.Table
	used      map[string]bool
	manifests map[string]bool // manifests already read
}

// metaRefs are the metadata files a snapshot, tag or changelog file names ("" = none).
type metaRefs struct {
	Base, Delta, Changelog, Index, Statistics string
}

func refsOf(s *spec.Snapshot) metaRefs {
	r := metaRefs{Base: s.BaseManifestList, Delta: s.DeltaManifestList}
	if s.ChangelogManifestList != nil {
		r.Changelog = *s.ChangelogManifestList
	}
	if s.IndexManifest != nil {
		r.Index = *s.IndexManifest
	}
	if s.Statistics != nil {
		r.Statistics = *s.Statistics
	}
	return r
}

// add records every file s references, reading its manifest lists, manifests and index manifest.
func (u *usage) add(ctx context.Context, s *spec.Snapshot) error { return u.addRefs(ctx, refsOf(s)) }

func (u *usage) addRefs(ctx context.Context, r metaRefs) error {
	for _, list := range []string{r.Base, r.Delta, r.Changelog} {
		if list == "" {
			continue
		}
		u.used[list] = true
		metas, err := u.t.ReadManifestList(ctx, list)
		if err != nil {
			return err
		}
		for _, m := range metas {
			u.used[m.FileName] = true
			if u.manifests[m.FileName] {
				continue
			}
			entries, err := u.t.ReadManifest(ctx, m.FileName)
			if err != nil {
				return err
			}
			u.manifests[m.FileName] = true
			for _, e := range entries {
				u.used[e.File.FileName] = true
				for _, x := range e.File.ExtraFiles {
					u.used[x] = true
				}
			}
		}
	}
	if r.Index != "" {
		u.used[r.Index] = true
		entries, err := index.ReadManifest(ctx, u.t, r.Index)
		if err != nil {
			return err
		}
		for _, e := range entries {
			u.used[e.FileName] = true
		}
	}
	if r.Statistics != "" {
		u.used[r.Statistics] = true
	}
	return nil
}

// changelogSnapshots reads the changelog/changelog-<id> files of a decoupled changelog lifecycle
// as snapshots of the metadata they name. An unreadable one is an error naming it.
func changelogSnapshots(ctx context.Context, t *table.Table) ([]*spec.Snapshot, error) {
	dir := fileio.Join(t.Path, "changelog")
	infos, err := t.FS.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []*spec.Snapshot
	for _, fi := range infos {
		if fi.IsDir || !strings.HasPrefix(fi.Name, "changelog-") {
			continue
		}
		b, err := t.FS.ReadFile(ctx, fi.Path)
		if err != nil {
			return nil, fmt.Errorf("read changelog %s: %w", fi.Path, err)
		}
		var j struct {
			ID         int64   `json:"id"`
			Base       *string `json:"baseManifestList"`
			Delta      *string `json:"deltaManifestList"`
			Changelog  *string `json:"changelogManifestList"`
			Index      *string `json:"indexManifest"`
			Statistics *string `json:"statistics"`
		}
		if err := json.Unmarshal(b, &j); err != nil {
			return nil, fmt.Errorf("changelog file %s: %w: %v", fi.Path, spec.ErrCorrupt, err)
		}
		str := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		s := &spec.Snapshot{ID: j.ID, BaseManifestList: str(j.Base), DeltaManifestList: str(j.Delta),
			ChangelogManifestList: j.Changelog, IndexManifest: j.Index, Statistics: j.Statistics}
		if err := table.CheckSnapshotNames(s, "changelog file "+fi.Path); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
