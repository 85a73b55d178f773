package table_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// TestLatestAndEarliestHints follows Java HintFileUtils: LATEST=h is trusted only if snapshot-h exists
// and snapshot-(h+1) does not; EARLIEST only if its snapshot exists. Otherwise the directory is listed.
func TestLatestAndEarliestHints(t *testing.T) {
	const none = "<none>"
	cases := []struct {
		name             string
		ids              []int64
		latest, earliest string // hint contents; none = no file
		extra            []string
		wantLatest       int64 // 0 = no snapshot
		wantEarliest     int64
	}{
		{name: "empty table", latest: none, earliest: none},
		{name: "empty table with garbage hints", latest: "7", earliest: "x"},
		{name: "hints missing", ids: []int64{1, 2, 3}, latest: none, earliest: none, wantLatest: 3, wantEarliest: 1},
		{name: "hints exact", ids: []int64{4, 5, 6}, latest: "6", earliest: "4", wantLatest: 6, wantEarliest: 4},
		{name: "LATEST stale", ids: []int64{1, 2, 3, 4}, latest: "2", earliest: "1", wantLatest: 4, wantEarliest: 1},
		{name: "LATEST ahead of files", ids: []int64{1, 2}, latest: "5", earliest: "1", wantLatest: 2, wantEarliest: 1},
		{name: "LATEST garbage", ids: []int64{1, 2}, latest: "two", earliest: "1", wantLatest: 2, wantEarliest: 1},
		{name: "LATEST zero", ids: []int64{1, 2}, latest: "0", earliest: none, wantLatest: 2, wantEarliest: 1},
		{name: "LATEST negative", ids: []int64{1, 2}, latest: "-3", earliest: none, wantLatest: 2, wantEarliest: 1},
		{name: "LATEST with newline", ids: []int64{1, 2}, latest: "2\n", earliest: none, wantLatest: 2, wantEarliest: 1},
		{name: "EARLIEST expired", ids: []int64{5, 6, 7}, latest: "7", earliest: "3", wantLatest: 7, wantEarliest: 5},
		{name: "EARLIEST garbage", ids: []int64{5, 6}, latest: "6", earliest: "", wantLatest: 6, wantEarliest: 5},
		{
			name: "temp and foreign files ignored", ids: []int64{1, 2, 3}, latest: none, earliest: none,
			extra:      []string{".snapshot-4.0b8e6a1e.tmp", ".snapshot-9.tmp", "snapshot-abc", "snapshot-", "LATEST.tmp"},
			wantLatest: 3, wantEarliest: 1,
		},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, fs, dir := newSnapshotDir(t)
			for _, id := range c.ids {
				putSnapshot(t, fs, dir, snap(id, "u", id, spec.CommitKindAppend))
			}
			if c.latest != none {
				putFile(t, fs, filepath.Join(dir, "LATEST"), c.latest)
			}
			if c.earliest != none {
				putFile(t, fs, filepath.Join(dir, "EARLIEST"), c.earliest)
			}
			for _, e := range c.extra {
				putFile(t, fs, filepath.Join(dir, e), "junk")
			}
			id, ok, err := m.LatestID(ctx)
			if err != nil || ok != (c.wantLatest > 0) || id != c.wantLatest {
				t.Errorf("LatestID = %d, %v, %v; want %d", id, ok, err, c.wantLatest)
			}
			id, ok, err = m.EarliestID(ctx)
			if err != nil || ok != (c.wantEarliest > 0) || id != c.wantEarliest {
				t.Errorf("EarliestID = %d, %v, %v; want %d", id, ok, err, c.wantEarliest)
			}
			s, err := m.Latest(ctx)
			switch {
			case err != nil:
				t.Errorf("Latest: %v", err)
			case c.wantLatest == 0 && s != nil:
				t.Errorf("Latest = snapshot %d, want none", s.ID)
			case c.wantLatest > 0 && (s == nil || s.ID != c.wantLatest):
				t.Errorf("Latest = %v, want snapshot %d", s, c.wantLatest)
			}
			ids, err := m.IDs(ctx)
			if err != nil || len(ids) != len(c.ids) {
				t.Errorf("IDs = %v, %v; want %v", ids, err, c.ids)
			}
		})
	}
}

func TestSnapshotCommit(t *testing.T) {
	ctx := context.Background()
	m, fs, dir := newSnapshotDir(t)
	if err := m.Commit(ctx, snap(1, "a", 1, spec.CommitKindAppend)); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"LATEST": "1", "EARLIEST": "1"} {
		b, err := fs.ReadFile(ctx, filepath.Join(dir, name))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	// Losing the race for an id: the first content stays, the error says so.
	err := m.Commit(ctx, snap(1, "b", 1, spec.CommitKindAppend))
	if !errors.Is(err, table.ErrSnapshotExists) {
		t.Fatalf("second commit of snapshot 1: %v, want ErrSnapshotExists", err)
	}
	s, err := m.Get(ctx, 1)
	if err != nil || s.CommitUser != "a" {
		t.Fatalf("snapshot 1 = %+v, %v; want user a", s, err)
	}
	if err := m.Commit(ctx, snap(2, "b", 1, spec.CommitKindAppend)); err != nil {
		t.Fatal(err)
	}
	b, _ := fs.ReadFile(ctx, filepath.Join(dir, "LATEST"))
	e, _ := fs.ReadFile(ctx, filepath.Join(dir, "EARLIEST"))
	if string(b) != "2" || string(e) != "1" {
		t.Errorf("after snapshot 2: LATEST=%q EARLIEST=%q, want 2 and 1", b, e)
	}
}

// TestCommitKeepsEarliestOfForeignTable: a table whose older snapshots were written without an
// EARLIEST hint (Java writes it only when expiring) keeps resolving its true earliest snapshot.
func TestCommitKeepsEarliestOfForeignTable(t *testing.T) {
	ctx := context.Background()
	m, fs, dir := newSnapshotDir(t)
	for id := int64(1); id <= 3; id++ {
		putSnapshot(t, fs, dir, snap(id, "java", id, spec.CommitKindAppend))
	}
	if err := m.Commit(ctx, snap(4, "lakeload", 1, spec.CommitKindAppend)); err != nil {
		t.Fatal(err)
	}
	if id, ok, err := m.EarliestID(ctx); err != nil || !ok || id != 1 {
		t.Errorf("EarliestID = %d, %v, %v; want 1", id, ok, err)
	}
	if id, ok, err := m.LatestID(ctx); err != nil || !ok || id != 4 {
		t.Errorf("LatestID = %d, %v, %v; want 4", id, ok, err)
	}
}

func TestSnapshotGetErrors(t *testing.T) {
	ctx := context.Background()
	m, fs, dir := newSnapshotDir(t)
	if _, err := m.Get(ctx, 1); !errors.Is(err, fileio.ErrNotExist) {
		t.Errorf("missing snapshot: %v, want ErrNotExist", err)
	}
	// A file whose id disagrees with its name is corrupt.
	b, _ := snap(3, "u", 1, spec.CommitKindAppend).JSON()
	putFile(t, fs, filepath.Join(dir, "snapshot-2"), string(b))
	if _, err := m.Get(ctx, 2); !errors.Is(err, spec.ErrCorrupt) || !strings.Contains(err.Error(), "snapshot-2") {
		t.Errorf("mismatched id: %v, want ErrCorrupt naming snapshot-2", err)
	}
	putFile(t, fs, filepath.Join(dir, "snapshot-4"), "{not json")
	if _, err := m.Get(ctx, 4); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("garbage snapshot: %v, want ErrCorrupt", err)
	}
}

// TestFindCommits checks the idempotence look-ups: bounded by snapshot id, matching user,
// identifier and (optionally) kind, skipping expired snapshots.
func TestFindCommits(t *testing.T) {
	ctx := context.Background()
	m, fs, dir := newSnapshotDir(t)
	all := []*spec.Snapshot{
		snap(1, "a", 1, spec.CommitKindAppend),
		snap(2, "b", 1, spec.CommitKindAppend),
		snap(3, "a", 2, spec.CommitKindAppend),
		snap(4, "a", 2, spec.CommitKindCompact),
		snap(5, "b", 2, spec.CommitKindAppend),
		snap(6, "a", 1, spec.CommitKindAppend), // a duplicate of snapshot 1's commit
	}
	for _, s := range all {
		putSnapshot(t, fs, dir, s)
	}
	putFile(t, fs, filepath.Join(dir, ".snapshot-7.abc.tmp"), "partial")
	cases := []struct {
		name  string
		q     table.CommitQuery
		after int64
		want  []int64
	}{
		{"all of a/1", table.CommitQuery{User: "a", Identifier: 1}, 0, []int64{1, 6}},
		{"bounded by id", table.CommitQuery{User: "a", Identifier: 1}, 1, []int64{6}},
		{"bound excludes all", table.CommitQuery{User: "a", Identifier: 1}, 6, nil},
		{"negative bound scans all", table.CommitQuery{User: "b", Identifier: 1}, -5, []int64{2}},
		{"any kind", table.CommitQuery{User: "a", Identifier: 2}, 0, []int64{3, 4}},
		{"append only", table.CommitQuery{User: "a", Identifier: 2, Kind: spec.CommitKindAppend}, 0, []int64{3}},
		{"compact only", table.CommitQuery{User: "a", Identifier: 2, Kind: spec.CommitKindCompact}, 3, []int64{4}},
		{"unknown user", table.CommitQuery{User: "c", Identifier: 1}, 0, nil},
		{"identifier mismatch", table.CommitQuery{User: "b", Identifier: 3}, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := m.FindCommits(ctx, c.q, c.after)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, s := range got {
				ids = append(ids, s.ID)
			}
			if !equalIDs(ids, c.want) {
				t.Errorf("FindCommits = %v, want %v", ids, c.want)
			}
			one, err := m.FindCommit(ctx, c.q, c.after)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case len(c.want) == 0 && one != nil:
				t.Errorf("FindCommit = %d, want none", one.ID)
			case len(c.want) > 0 && (one == nil || one.ID != c.want[len(c.want)-1]):
				t.Errorf("FindCommit = %v, want newest %d", one, c.want[len(c.want)-1])
			}
		})
	}
	for user, want := range map[string]int64{"a": 6, "b": 5, "c": 0} {
		s, err := m.LatestOfUser(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		if (want == 0) != (s == nil) || (s != nil && s.ID != want) {
			t.Errorf("LatestOfUser(%s) = %v, want %d", user, s, want)
		}
	}
	// Expired snapshots (deleted files) are skipped, not errors.
	for _, id := range []string{"snapshot-5", "snapshot-6"} {
		if err := fs.Delete(ctx, filepath.Join(dir, id)); err != nil {
			t.Fatal(err)
		}
	}
	if s, err := m.LatestOfUser(ctx, "b"); err != nil || s == nil || s.ID != 2 {
		t.Errorf("LatestOfUser(b) after expiring 5-6 = %v, %v; want 2", s, err)
	}
	// A corrupt snapshot is an error, not a silent miss.
	putFile(t, fs, filepath.Join(dir, "snapshot-8"), "{")
	if _, err := m.FindCommits(ctx, table.CommitQuery{User: "a", Identifier: 1}, 0); !errors.Is(err, spec.ErrCorrupt) {
		t.Errorf("FindCommits over a corrupt snapshot: %v, want ErrCorrupt", err)
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
