package loadtest

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// Database is the database every fixture table is created in.
const Database = "db"

// Ident is the catalog identifier of the fixture's table.
func (f Fixture) Ident() catalog.Identifier {
	return catalog.Identifier{Database: Database, Table: f.Name}
}

// Create creates the fixture's table in warehouse wh (local disk) and returns it.
func (f Fixture) Create(t testing.TB, wh string) *table.Table {
	t.Helper()
	ctx := context.Background()
	cat := catalog.New(local.New(), wh)
	if err := cat.CreateTable(ctx, f.Ident(), f.Schema(t), false); err != nil {
		t.Fatalf("create table %s: %v", f.Name, err)
	}
	return f.Open(t, wh, local.New())
}

// Open opens the fixture's table in warehouse wh through fs (e.g. a fault-injecting wrapper).
func (f Fixture) Open(t testing.TB, wh string, fs fileio.FileIO) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), fs, f.TablePath(wh), f.Name)
	if err != nil {
		t.Fatalf("open table %s: %v", f.Name, err)
	}
	return tbl
}

// TablePath is the directory of the fixture's table in warehouse wh.
func (f Fixture) TablePath(wh string) string {
	return filepath.ToSlash(filepath.Join(wh, Database+".db", f.Name))
}

// Lines reads the latest snapshot of tbl with lakeload's reader as sorted canonical lines.
func Lines(t testing.TB, tbl *table.Table) []string {
	t.Helper()
	schema, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{})
	if err != nil {
		t.Fatalf("read %s: %v", tbl.Path, err)
	}
	lines, err := canon.Rows(schema.Fields, rows)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return lines
}

// SnapshotsOf returns every snapshot of tbl committed by user, ascending by id.
func SnapshotsOf(t testing.TB, tbl *table.Table, user string) []*spec.Snapshot {
	t.Helper()
	ctx := context.Background()
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*spec.Snapshot
	for _, id := range ids {
		s, err := tbl.Snapshots().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if s.CommitUser == user {
			out = append(out, s)
		}
	}
	return out
}

// WindowCommits returns the APPEND snapshots of (user, window) — the window's markers.
func WindowCommits(t testing.TB, tbl *table.Table, user string, window int64) []*spec.Snapshot {
	t.Helper()
	found, err := tbl.Snapshots().FindCommits(context.Background(),
		table.CommitQuery{User: user, Identifier: window, Kind: spec.CommitKindAppend}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Diff describes how got differs from want (both sorted line sets): rows missing, rows extra. ""
// when equal.
func Diff(want, got []string) string {
	var missing, extra []string
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || (i < len(want) && want[i] < got[j]):
			missing = append(missing, want[i])
			i++
		case i == len(want) || got[j] < want[i]:
			extra = append(extra, got[j])
			j++
		default:
			i++
			j++
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	const show = 5
	return describe("missing", missing, show) + describe("unexpected", extra, show)
}

func describe(what string, lines []string, show int) string {
	if len(lines) == 0 {
		return ""
	}
	s := "\n" + what + ":"
	for i, l := range lines {
		if i == show {
			s += "\n  …"
			break
		}
		s += "\n  " + l
	}
	return s + " (" + strconv.Itoa(len(lines)) + " rows)"
}
