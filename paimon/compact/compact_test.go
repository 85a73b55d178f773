package compact_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/paimon/compact"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
)

// writeRounds commits n rounds of upserts and deletes over keys 0..keys-1 in partitions a and b.
func writeRounds(t *testing.T, tbl *table.Table, m *model, n, keys int) {
	t.Helper()
	for r := 0; r < n; r++ {
		var cs []change
		for k := 0; k < keys; k++ {
			for _, dt := range []string{"a", "b"} {
				switch {
				case (k+r)%7 == 3:
					cs = append(cs, del(int64(k), dt))
				case (k*r)%3 != 1:
					cs = append(cs, ins(int64(k), fmt.Sprintf("r%d-k%d", r, k), dt))
				}
			}
		}
		commitChanges(t, tbl, m, cs)
	}
}

func mustRun(t *testing.T, tbl *table.Table, o compact.Options) compact.Result {
	t.Helper()
	r, err := compact.Run(context.Background(), tbl, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkSnapshot(t *testing.T, tbl *table.Table, r compact.Result) {
	t.Helper()
	s, err := tbl.Snapshots().Get(context.Background(), r.SnapshotID)
	if err != nil {
		t.Fatal(err)
	}
	if s.CommitKind != spec.CommitKindCompact || !strings.HasPrefix(s.CommitUser, compact.CommitUserPrefix) || s.CommitUser != r.CommitUser {
		t.Errorf("snapshot %d: kind %s user %q, want COMPACT by %s…", s.ID, s.CommitKind, s.CommitUser, compact.CommitUserPrefix)
	}
}

func TestUniversalCompactionKeepsRows(t *testing.T) {
	tbl := newTable(t, []string{"dt", "id"}, []string{"dt"}, map[string]string{"bucket": "1"})
	m := newModel("deduplicate")
	writeRounds(t, tbl, m, 4, 40)
	if r := mustRun(t, tbl, compact.Options{}); r.SnapshotID != 0 {
		t.Fatalf("4 runs (< trigger 5) were compacted: %+v", r)
	}
	writeRounds(t, tbl, m, 2, 40)
	before := visible(t, tbl)
	if !slices.Equal(before, m.want()) {
		t.Fatalf("before compaction the table differs from the model")
	}
	r := mustRun(t, tbl, compact.Options{})
	if r.SnapshotID == 0 || len(r.Buckets) != 2 || r.FilesBefore != 12 {
		t.Fatalf("result %+v, want a snapshot compacting 2 buckets of 6 files", r)
	}
	checkSnapshot(t, tbl, r)
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after compaction: %d rows, model %d", len(got), len(m.want()))
	}
	live := liveFiles(t, tbl)
	if len(live) != r.FilesAfter {
		t.Errorf("FilesAfter %d, live files %d", r.FilesAfter, len(live))
	}
	for _, e := range live {
		// 6 runs of similar size: size amplification picks everything into the max level (5), deletes dropped.
		if e.File.Level != 5 || *e.File.DeleteRowCount != 0 || e.File.FileSource == nil || *e.File.FileSource != int32(manifest.Compact) {
			t.Errorf("file %s: level %d deletes %d source %v", e.File.FileName, e.File.Level, *e.File.DeleteRowCount, e.File.FileSource)
		}
	}
}

func TestPartialCompactionKeepsRetracts(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1"})
	m := newModel("deduplicate")
	var big []change
	for k := 0; k < 5000; k++ {
		big = append(big, ins(int64(k), fmt.Sprintf("base-%d-%s", k, strings.Repeat("x", k%13)), "a"))
	}
	commitChanges(t, tbl, m, big)
	mustRun(t, tbl, compact.Options{Full: true})
	for r := 0; r < 5; r++ {
		commitChanges(t, tbl, m, []change{del(int64(r*7), "a"), ins(int64(r*7+1), "new", "a"), del(int64(r*11+2), "a")})
	}
	r := mustRun(t, tbl, compact.Options{})
	if r.SnapshotID == 0 || len(r.Buckets) != 1 || r.Buckets[0].OutputLevel != 4 || r.Buckets[0].Inputs != 5 {
		t.Fatalf("result %+v, want the 5 level-0 runs compacted to level 4", r)
	}
	var deletes int64
	for _, e := range liveFiles(t, tbl) {
		if e.File.Level == 4 {
			deletes += *e.File.DeleteRowCount
		}
	}
	if deletes != 10 {
		t.Errorf("level-4 output holds %d delete rows, want 10 (they must keep shadowing level 5)", deletes)
	}
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after partial compaction: %d rows, model %d", len(got), len(m.want()))
	}
	// A full compaction then drops them.
	mustRun(t, tbl, compact.Options{Full: true})
	for _, e := range liveFiles(t, tbl) {
		if e.File.Level != 5 || *e.File.DeleteRowCount != 0 {
			t.Errorf("after full compaction: file at level %d with %d deletes", e.File.Level, *e.File.DeleteRowCount)
		}
	}
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after full compaction: %d rows, model %d", len(got), len(m.want()))
	}
}

// TestHiddenLevel0Tables: Java's batch read skips level 0 of deletion-vector and first-row tables.
// Before compaction none of the written rows are visible (negative control); after it all are.
func TestHiddenLevel0Tables(t *testing.T) {
	for _, c := range []struct {
		engine string
		opts   map[string]string
	}{
		{"deduplicate", map[string]string{"bucket": "2", "deletion-vectors.enabled": "true"}},
		{"first-row", map[string]string{"bucket": "2", "merge-engine": "first-row"}},
	} {
		t.Run(c.engine, func(t *testing.T) {
			tbl := newTable(t, []string{"dt", "id"}, []string{"dt"}, c.opts)
			m := newModel(c.engine)
			for r := 0; r < 3; r++ {
				var cs []change
				for k := 0; k < 30; k++ {
					if c.engine == "deduplicate" && (k+r)%5 == 0 {
						cs = append(cs, del(int64(k), "a"))
					} else {
						cs = append(cs, ins(int64(k), fmt.Sprintf("r%d", r), []string{"a", "b"}[k%2]))
					}
				}
				commitChanges(t, tbl, m, cs)
			}
			if got := visible(t, tbl); len(got) != 0 {
				t.Fatalf("before compaction %d rows are visible; level 0 should be hidden", len(got))
			}
			r := mustRun(t, tbl, compact.Options{})
			checkSnapshot(t, tbl, r)
			if got := visible(t, tbl); len(got) == 0 || !slices.Equal(got, m.want()) {
				t.Fatalf("after compaction %d rows, model %d", len(got), len(m.want()))
			}
			// More writes on top of the max level: compacted again into one run per bucket.
			late := []change{ins(1, "late", "a"), ins(100, "new", "b")}
			if c.engine == "deduplicate" {
				late = append(late, del(2, "a"))
			}
			commitChanges(t, tbl, m, late)
			mustRun(t, tbl, compact.Options{})
			if got := visible(t, tbl); !slices.Equal(got, m.want()) {
				t.Fatalf("after second compaction %v, model %v", got, m.want())
			}
			for _, e := range liveFiles(t, tbl) {
				if e.File.Level != 5 {
					t.Errorf("file %s stays at level %d", e.File.FileName, e.File.Level)
				}
			}
		})
	}
}

func TestAppendSmallFiles(t *testing.T) {
	tbl := newTable(t, nil, []string{"dt"}, nil)
	m := newModel("append")
	for r := 0; r < 5; r++ {
		commitChanges(t, tbl, m, []change{ins(int64(r), "x", "a"), ins(int64(r), "y", "b")})
		if r == 3 {
			if res := mustRun(t, tbl, compact.Options{}); res.SnapshotID != 0 {
				t.Fatalf("4 small files (< compaction.min.file-num 5) were compacted")
			}
		}
	}
	r := mustRun(t, tbl, compact.Options{Partition: map[string]string{"dt": "a"}})
	if r.SnapshotID == 0 || r.FilesBefore != 5 || r.FilesAfter != 1 {
		t.Fatalf("result %+v, want partition a's 5 files compacted into 1", r)
	}
	checkSnapshot(t, tbl, r)
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after compaction %v, model %v", got, m.want())
	}
	if n := len(liveFiles(t, tbl)); n != 6 {
		t.Errorf("%d live files, want 1 in a + 5 in b", n)
	}
}

// TestConflictRetriesFromFreshScan: another compaction commits between our rewrite and our commit;
// our commit finds its inputs gone, deletes its outputs and starts again from the new snapshot.
func TestConflictRetriesFromFreshScan(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1"})
	m := newModel("deduplicate")
	for r := 0; r < 3; r++ {
		commitChanges(t, tbl, m, []change{ins(int64(r), "a", "a"), ins(10, fmt.Sprint(r), "a")})
	}
	raced := false
	r := mustRun(t, tbl, compact.Options{Full: true, BeforeCommit: func() error {
		if raced {
			return nil
		}
		raced = true
		commitChanges(t, tbl, m, []change{ins(20, "concurrent", "a")})
		_, err := compact.Table(context.Background(), tbl, compact.Options{Full: true})
		return err
	}})
	if r.Attempts != 2 {
		t.Fatalf("attempts %d, want 2 (one conflict)", r.Attempts)
	}
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after compaction %v, model %v", got, m.want())
	}
	// The conflicted attempt's outputs are gone: every data file on disk is live.
	ctx := context.Background()
	infos, err := tbl.FS.List(ctx, tbl.Path+"/bucket-0")
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, e := range liveFiles(t, tbl) {
		live[e.File.FileName] = true
	}
	orphans := 0
	for _, fi := range infos {
		name := fi.Path[strings.LastIndex(fi.Path, "/")+1:]
		if strings.Contains(name, "data-") && !live[name] && !wasEverCommitted(t, tbl, name) {
			orphans++
		}
	}
	if orphans != 0 {
		t.Errorf("%d data files of the conflicted attempt were left behind", orphans)
	}
}

func TestRefusals(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", "changelog-producer": "lookup"})
	_, err := compact.Run(context.Background(), tbl, compact.Options{})
	if !errors.Is(err, compact.ErrUnsupported) || !strings.Contains(err.Error(), "changelog-producer=lookup") {
		t.Errorf("changelog-producer=lookup: %v", err)
	}
	tbl = newTable(t, []string{"dt", "id"}, []string{"dt"}, map[string]string{"bucket": "1"})
	_, err = compact.Run(context.Background(), tbl, compact.Options{Partition: map[string]string{"day": "x"}})
	if err == nil || !strings.Contains(err.Error(), `"day"`) {
		t.Errorf("unknown partition column: %v", err)
	}
	tbl = newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", "num-levels": "x"})
	commitChanges(t, tbl, newModel("deduplicate"), []change{ins(1, "a", "a")})
	if _, err = compact.Run(context.Background(), tbl, compact.Options{}); err == nil || !strings.Contains(err.Error(), "num-levels") {
		t.Errorf("bad num-levels: %v", err)
	}
}

func TestEmptyTable(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1"})
	if r := mustRun(t, tbl, compact.Options{Full: true}); r.SnapshotID != 0 {
		t.Errorf("empty table compacted: %+v", r)
	}
}

// TestRollingOutputIsOneSortedRun: with a small target-file-size the output of a full compaction
// rolls into several files on one level; the commit's LSM check (no overlapping key ranges on a
// level ≥ 1) accepts them and the rows are unchanged.
func TestRollingOutputIsOneSortedRun(t *testing.T) {
	tbl := newTable(t, []string{"id"}, nil, map[string]string{"bucket": "1", "target-file-size": "16 kb"})
	m := newModel("deduplicate")
	for r := 0; r < 3; r++ {
		var cs []change
		for k := 0; k < 3000; k++ {
			cs = append(cs, ins(int64(k*3+r), fmt.Sprintf("%d-%s", k, strings.Repeat("v", k%40)), "a"))
		}
		commitChanges(t, tbl, m, cs)
	}
	r := mustRun(t, tbl, compact.Options{Full: true})
	if r.FilesAfter < 3 {
		t.Fatalf("full compaction of 9000 rows at target 16 kb wrote %d files", r.FilesAfter)
	}
	for _, e := range liveFiles(t, tbl) {
		if e.File.Level != 5 {
			t.Errorf("file %s at level %d", e.File.FileName, e.File.Level)
		}
	}
	if got := visible(t, tbl); !slices.Equal(got, m.want()) {
		t.Fatalf("after compaction %d rows, model %d", len(got), len(m.want()))
	}
}
