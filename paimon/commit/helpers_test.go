package commit_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/table/tabletest"
	"github.com/lakeload/lakeload/paimon/write"
)

// appendCols is the schema of the append tables used here: (id BIGINT, who STRING).
var appendCols = [][2]string{{"id", "BIGINT"}, {"who", "STRING"}}

// createTable writes schema-0 under dir on the local file system and opens the table.
func createTable(t testing.TB, dir string, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return createTableOn(t, local.New(), dir, cols, part, pk, opts)
}

// memTable creates a table in a fresh in-memory file system (no fsync: fast for many commits).
func memTable(t testing.TB, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return createTableOn(t, mem.New(), "/warehouse/db.db/t", cols, part, pk, opts)
}

func createTableOn(t testing.TB, fs fileio.FileIO, dir string, cols [][2]string, part, pk []string, opts map[string]string) *table.Table {
	t.Helper()
	return tabletest.New(t, fs, dir, cols, part, pk, opts)
}

func openTable(t testing.TB, dir string) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), local.New(), dir, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// writeRows writes rows (inserts) with a fresh writer and returns the commit messages.
func writeRows(t testing.TB, tbl *table.Table, rows [][]any) []table.CommitMessage {
	t.Helper()
	return writeRowsWith(t, tbl, write.Options{}, rows)
}

// writeRowsWith writes rows (inserts) with a fresh writer of options o and returns the commit messages.
func writeRowsWith(t testing.TB, tbl *table.Table, o write.Options, rows [][]any) []table.CommitMessage {
	t.Helper()
	changes := make([]roundtrip.Change, len(rows))
	for i, r := range rows {
		changes[i] = roundtrip.Ins(r...)
	}
	return roundtrip.Write(t, tbl, o, changes)
}

// appendRows returns n rows (id, who) with ids from first.
func appendRows(first int64, n int, who string) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{first + int64(i), who}
	}
	return rows
}

// mustCommit commits msgs as user (batch identifier, no look-up) and returns the snapshot id.
func mustCommit(t testing.TB, tbl *table.Table, msgs []table.CommitMessage, user string) int64 {
	t.Helper()
	id := roundtrip.Commit(t, tbl, msgs, user)
	if id == 0 {
		t.Fatalf("commit of %s created no snapshot", user)
	}
	return id
}

// rowLines renders rows as sorted "v1|v2|…" lines for multiset comparison.
func rowLines(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		parts := make([]string, len(r))
		for j, v := range r {
			parts[j] = fmt.Sprint(v)
		}
		out[i] = strings.Join(parts, "|")
	}
	slices.Sort(out)
	return out
}

// checkRows compares the table's visible rows (latest snapshot) with want, as multisets.
func checkRows(t testing.TB, tbl *table.Table, snapshot int64, want [][]any) {
	t.Helper()
	_, got, err := read.Rows(context.Background(), tbl, read.ScanOptions{SnapshotID: snapshot})
	if err != nil {
		t.Fatal(err)
	}
	g, w := rowLines(got), rowLines(want)
	if !slices.Equal(g, w) {
		t.Fatalf("snapshot %d: %d rows, want %d\n got: %.20v\nwant: %.20v", snapshot, len(g), len(w), g, w)
	}
}

// snapshotsOf returns every snapshot of the table, ascending, checking ids are 1..n without gaps.
func snapshotsOf(t testing.TB, tbl *table.Table) []*spec.Snapshot {
	t.Helper()
	ctx := context.Background()
	snaps := tbl.Snapshots()
	ids, err := snaps.IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*spec.Snapshot, len(ids))
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("snapshot ids %v are not contiguous from 1", ids)
		}
		if out[i], err = snaps.Get(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// checkCounts verifies that totalRecordCount chains with deltaRecordCount over all snapshots and
// equals the rows of the live files (for the last snapshot, and every 7th to keep it fast).
func checkCounts(t testing.TB, tbl *table.Table, snaps []*spec.Snapshot) {
	t.Helper()
	var prev int64
	for i, s := range snaps {
		if s.TotalRecordCount == nil || s.DeltaRecordCount == nil {
			t.Fatalf("snapshot %d lacks record counts", s.ID)
		}
		if *s.TotalRecordCount != prev+*s.DeltaRecordCount {
			t.Errorf("snapshot %d: total %d != previous %d + delta %d", s.ID, *s.TotalRecordCount, prev, *s.DeltaRecordCount)
		}
		prev = *s.TotalRecordCount
		if i != len(snaps)-1 && i%7 != 0 {
			continue
		}
		live, err := tbl.LiveFiles(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, e := range live {
			n += e.File.RowCount
		}
		if n != *s.TotalRecordCount {
			t.Errorf("snapshot %d: totalRecordCount %d, live files hold %d rows", s.ID, *s.TotalRecordCount, n)
		}
	}
}
