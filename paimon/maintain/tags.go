package maintain

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

const tagPrefix = "tag-"

// taggedSnapshots reads <table>/tag/tag-<name> (each a snapshot JSON) and returns the tagged
// snapshots ascending by id, one per id (Java TagManager.taggedSnapshots). An unreadable tag is an
// error: a tag protects files, so guessing would delete what it holds.
func taggedSnapshots(ctx context.Context, t *table.Table) ([]*spec.Snapshot, error) {
	dir := fileio.Join(t.Path, "tag")
	infos, err := t.FS.List(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("list tags %s: %w", dir, err)
	}
	byID := map[int64]*spec.Snapshot{}
	for _, fi := range infos {
		if fi.IsDir || !strings.HasPrefix(fi.Name, tagPrefix) {
			continue
		}
		b, err := t.FS.ReadFile(ctx, fi.Path)
		if err != nil {
			return nil, fmt.Errorf("read tag %s: %w", fi.Path, err)
		}
		s, err := spec.ParseSnapshot(b)
		if err == nil {
			err = table.CheckSnapshotNames(s, "tag file "+fi.Path)
		}
		if err != nil {
			return nil, fmt.Errorf("tag file %s: %w", fi.Path, err)
		}
		byID[s.ID] = s
	}
	out := make([]*spec.Snapshot, 0, len(byID))
	for _, s := range byID {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// previousTag is the index of the last tag with id < target, or -1 (Java findPreviousSnapshot).
func previousTag(tags []*spec.Snapshot, target int64) int {
	for i := len(tags) - 1; i >= 0; i-- {
		if tags[i].ID < target {
			return i
		}
	}
	return -1
}

// previousOrEqualTag is the index of the last tag with id ≤ target, or -1.
func previousOrEqualTag(tags []*spec.Snapshot, target int64) int {
	for i := len(tags) - 1; i >= 0; i-- {
		if tags[i].ID <= target {
			return i
		}
	}
	return -1
}

// skippingTags are the tags whose metadata expiring [begin, end) must keep (Java
// ExpireSnapshotsImpl.findSkippingTags).
func skippingTags(tags []*spec.Snapshot, begin, end int64) []*spec.Snapshot {
	right := previousTag(tags, end)
	if right < 0 {
		return nil
	}
	left := max(previousOrEqualTag(tags, begin), 0)
	return append([]*spec.Snapshot(nil), tags[left:right+1]...)
}
