package commit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// atLevel returns copies of msgs whose new files sit on level.
func atLevel(msgs []table.CommitMessage, level int32) []table.CommitMessage {
	out := make([]table.CommitMessage, len(msgs))
	for i, m := range msgs {
		m.NewFiles = append([]manifest.DataFileMeta(nil), m.NewFiles...)
		for j := range m.NewFiles {
			m.NewFiles[j].Level = level
		}
		out[i] = m
	}
	return out
}

func withTotalBuckets(msgs []table.CommitMessage, n int32) []table.CommitMessage {
	out := append([]table.CommitMessage(nil), msgs...)
	for i := range out {
		out[i].TotalBuckets = n
	}
	return out
}

func concat(ms ...[]table.CommitMessage) []table.CommitMessage {
	var out []table.CommitMessage
	for _, m := range ms {
		out = append(out, m...)
	}
	return out
}

// TestConflictChecks runs Java's commit-time checks for commits that delete files or are not plain
// APPENDs. Each case starts from a table where commit A (keys 1-10) and commit B (keys 5-15) are live.
func TestConflictChecks(t *testing.T) {
	type state struct {
		tbl        *table.Table
		a, b, gone []table.CommitMessage // gone: files added then deleted
		fresh      []table.CommitMessage // written, never committed
	}
	rows := func(lo, hi int64) [][]any {
		var out [][]any
		for k := lo; k <= hi; k++ {
			out = append(out, []any{k, "v"})
		}
		return out
	}
	cases := []struct {
		name     string
		kind     spec.CommitKind
		msgs     func(s state) []table.CommitMessage
		conflict string // "" = must succeed; else a substring of the error
	}{
		{"delete a live file", "", func(s state) []table.CommitMessage { return deleteMsgs(s.a) }, ""},
		{"delete a file deleted before", "", func(s state) []table.CommitMessage { return deleteMsgs(s.gone) }, "no longer live"},
		{"delete a file never added", "", func(s state) []table.CommitMessage { return deleteMsgs(s.fresh) }, "no longer live"},
		{"delete the same file twice in one commit", "", func(s state) []table.CommitMessage { return concat(deleteMsgs(s.a), deleteMsgs(s.a)) }, "no longer live"},
		{"delete and re-add the same file", "", func(s state) []table.CommitMessage { return concat(deleteMsgs(s.a), s.a) }, "adds and deletes"},
		{"total buckets changed with a delete", "", func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), withTotalBuckets(s.fresh, 3))
		}, "total buckets"},
		{"total buckets changed by a compaction", spec.CommitKindCompact, func(s state) []table.CommitMessage {
			return withTotalBuckets(s.fresh, 3)
		}, "total buckets"},
		{"total buckets changed by an overwrite", spec.CommitKindOverwrite, func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), deleteMsgs(s.b), withTotalBuckets(s.fresh, 3))
		}, ""},
		{"plain append is not checked", "", func(s state) []table.CommitMessage { return s.fresh }, ""},
		{"level-1 files with overlapping keys", spec.CommitKindCompact, func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), deleteMsgs(s.b), atLevel(s.a, 1), atLevel(s.b, 1))
		}, "LSM conflicts"},
		{"level-1 overlap with a file already there", spec.CommitKindCompact, func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), atLevel(s.a, 1), atLevel(s.fresh, 1))
		}, "LSM conflicts"},
		{"overlapping files on different levels", spec.CommitKindCompact, func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), deleteMsgs(s.b), atLevel(s.a, 1), atLevel(s.b, 2))
		}, ""},
		{"disjoint level-1 files", spec.CommitKindCompact, func(s state) []table.CommitMessage {
			return concat(deleteMsgs(s.a), atLevel(s.a, 1), atLevel(s.gone, 1))
		}, ""},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tbl := memTable(t, [][2]string{{"k", "BIGINT"}, {"v", "STRING"}}, nil, []string{"k"}, map[string]string{"bucket": "1"})
			var s state
			s.tbl = tbl
			gone := writeRows(t, tbl, rows(20, 25))
			mustCommit(t, tbl, gone, "setup-gone")
			mustCommit(t, tbl, deleteMsgs(gone), "setup-delete")
			s.gone = gone
			s.a = writeRows(t, tbl, rows(1, 10))
			mustCommit(t, tbl, s.a, "setup-a")
			s.b = writeRows(t, tbl, rows(5, 15))
			mustCommit(t, tbl, s.b, "setup-b")
			s.fresh = writeRows(t, tbl, rows(8, 9))
			before, _ := tbl.Snapshots().Latest(ctx)

			res, err := commit.Commit(ctx, tbl, c.msgs(s), commit.Options{User: "test", Identifier: 1, Kind: c.kind})
			after, _ := tbl.Snapshots().Latest(ctx)
			if c.conflict == "" {
				if err != nil {
					t.Fatalf("commit failed: %v", err)
				}
				if res.SnapshotID != before.ID+1 || after.ID != before.ID+1 {
					t.Errorf("result %+v, latest %d; want snapshot %d", res, after.ID, before.ID+1)
				}
				return
			}
			if !errors.Is(err, commit.ErrConflict) || !strings.Contains(err.Error(), c.conflict) {
				t.Fatalf("got %v, want ErrConflict mentioning %q", err, c.conflict)
			}
			if after.ID != before.ID {
				t.Errorf("a conflicting commit created snapshot %d", after.ID)
			}
		})
	}
}

// TestConflictAfterLosingRace: the writer plans a delete, loses the snapshot race to a writer that
// deleted the same file, and must fail with ErrConflict on re-planning instead of retrying forever.
func TestConflictAfterLosingRace(t *testing.T) {
	ctx := context.Background()
	tbl := memTable(t, appendCols, nil, nil, nil)
	a := writeRows(t, tbl, appendRows(0, 3, "a"))
	mustCommit(t, tbl, a, "setup")
	calls := 0
	_, err := commit.Commit(ctx, tbl, deleteMsgs(a), commit.Options{User: "me", Identifier: 1, BeforeSnapshot: func(int64) error {
		calls++
		if calls == 1 {
			mustCommit(t, tbl, deleteMsgs(a), "rival")
		}
		return nil
	}})
	if !errors.Is(err, commit.ErrConflict) {
		t.Fatalf("got %v, want ErrConflict", err)
	}
	if calls != 1 {
		t.Errorf("snapshot hook ran %d times; the conflict must stop before a second snapshot attempt", calls)
	}
	snaps := snapshotsOf(t, tbl)
	if len(snaps) != 2 || snaps[1].CommitUser != "rival" {
		t.Errorf("snapshots: %d, last by %s", len(snaps), snaps[len(snaps)-1].CommitUser)
	}
	checkCounts(t, tbl, snaps)
	checkRows(t, tbl, 0, nil)
}
