package table_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
)

// TestFloorSince: the floor after which snapshots created since `seen` was the latest are found.
// Snapshot ids and delta lists are given per case; "d-N" is the list snap(N) writes, "r-N" one a
// commit after a rollback wrote at the reused id N.
func TestFloorSince(t *testing.T) {
	cases := []struct {
		name     string
		ids      []int64
		reused   []int64 // ids whose snapshot was written again after a rollback (another delta list)
		seen     int64
		seenList string
		want     int64
	}{
		{name: "nothing seen", ids: []int64{1, 2}, seen: 0, seenList: "", want: 0},
		{name: "empty table", seen: 3, seenList: "manifest-list-d-3", want: 0},
		{name: "unchanged", ids: []int64{1, 2, 3, 4}, seen: 3, seenList: "manifest-list-d-3", want: 3},
		{name: "unchanged, nothing since", ids: []int64{1, 2, 3}, seen: 3, seenList: "manifest-list-d-3", want: 3},
		{name: "rolled back to seen", ids: []int64{1, 2, 3}, seen: 3, seenList: "manifest-list-d-3", want: 3},
		{name: "rolled back below seen", ids: []int64{1, 2}, seen: 3, seenList: "manifest-list-d-3", want: 0},
		{name: "rolled back below seen, earliest 2", ids: []int64{2, 3, 4}, reused: []int64{4}, seen: 5, seenList: "manifest-list-d-5", want: 1},
		{name: "rolled back below seen, commits past it", ids: []int64{1, 2, 3, 4, 5}, reused: []int64{3, 4, 5}, seen: 4,
			seenList: "manifest-list-d-4", want: 0},
		{name: "rolled back below seen, reused up to it", ids: []int64{1, 2, 3}, reused: []int64{2, 3}, seen: 3,
			seenList: "manifest-list-d-3", want: 0},
		{name: "seen expired", ids: []int64{5, 6, 7}, seen: 3, seenList: "manifest-list-d-3", want: 3},
		{name: "old record: min(seen, latest)", ids: []int64{1, 2, 3, 4}, reused: []int64{3, 4}, seen: 4, want: 4},
		{name: "old record below latest rolled back", ids: []int64{1, 2}, seen: 4, want: 2},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, fs, dir := newSnapshotDir(t)
			for _, id := range c.ids {
				s := snap(id, "u", id, spec.CommitKindAppend)
				for _, r := range c.reused {
					if r == id {
						s.DeltaManifestList = "manifest-list-r-" + s.DeltaManifestList[len("manifest-list-d-"):]
					}
				}
				putSnapshot(t, fs, dir, s)
			}
			if len(c.ids) > 0 {
				putFile(t, fs, filepath.Join(dir, "EARLIEST"), strconv.FormatInt(c.ids[0], 10))
				putFile(t, fs, filepath.Join(dir, "LATEST"), strconv.FormatInt(c.ids[len(c.ids)-1], 10))
			}
			got, err := m.FloorSince(ctx, c.seen, c.seenList)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("FloorSince(%d, %q) = %d, want %d", c.seen, c.seenList, got, c.want)
			}
		})
	}
}
