package table_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestFindCommitsBoundedScan: with a LATEST hint the look-up probes ids after the bound instead of
// listing, and still finds what a listing finds: commits past a stale hint, none from a gap.
func TestFindCommitsBoundedScan(t *testing.T) {
	ctx := context.Background()
	m, fs, dir := newSnapshotDir(t)
	for _, s := range []*spec.Snapshot{
		snap(1, "a", 1, spec.CommitKindAppend),
		snap(2, "a", 2, spec.CommitKindAppend),
		snap(3, "a", 3, spec.CommitKindAppend),
		snap(4, "a", 4, spec.CommitKindAppend),
		snap(5, "a", 5, spec.CommitKindAppend),
	} {
		putSnapshot(t, fs, dir, s)
	}
	putFile(t, fs, filepath.Join(dir, "LATEST"), "4") // stale: snapshot 5 landed after the hint
	if err := fs.Delete(ctx, filepath.Join(dir, "snapshot-3")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, after int64
		want      int
	}{{5, 4, 1}, {5, 1, 1}, {3, 2, 0}, {4, 3, 1}, {2, 2, 0}} {
		got, err := m.FindCommits(ctx, table.CommitQuery{User: "a", Identifier: c.id}, c.after)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want || (c.want == 1 && got[0].ID != c.id) {
			t.Errorf("FindCommits(a/%d after %d) = %d snapshots, want %d", c.id, c.after, len(got), c.want)
		}
	}
}
