package compact_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/lakeload/lakeload/internal/roundtrip"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/table/tabletest"
	"github.com/lakeload/lakeload/paimon/write"
)

// newTable creates a table (id BIGINT, v STRING[, dt STRING]) in a fresh in-memory file system.
func newTable(t *testing.T, pk, part []string, opts map[string]string) *table.Table {
	t.Helper()
	return tabletest.NewMem(t, [][2]string{{"id", "BIGINT NOT NULL"}, {"v", "STRING"}, {"dt", "STRING NOT NULL"}}, part, pk, opts)
}

type change struct {
	kind spec.RowKind
	id   int64
	v    string
	dt   string
}

// model is the expected table content: the naive replay of every change (deduplicate keeps the
// last row per key, a delete removes it; first-row keeps the first row and ignores deletes; append
// keeps every row).
type model struct {
	engine string // "deduplicate", "first-row", "append"
	rows   map[string][]any
	all    [][]any
}

func newModel(engine string) *model { return &model{engine: engine, rows: map[string][]any{}} }

func (m *model) apply(c change) {
	row := []any{c.id, c.v, c.dt}
	k := fmt.Sprint(c.dt, "/", c.id)
	switch m.engine {
	case "append":
		m.all = append(m.all, row)
	case "first-row":
		if _, ok := m.rows[k]; !ok && !c.kind.IsRetract() {
			m.rows[k] = row
		}
	default:
		if c.kind.IsRetract() {
			delete(m.rows, k)
		} else {
			m.rows[k] = row
		}
	}
}

func (m *model) want() []string {
	var out []string
	for _, r := range m.rows {
		out = append(out, fmt.Sprint(r))
	}
	for _, r := range m.all {
		out = append(out, fmt.Sprint(r))
	}
	sort.Strings(out)
	return out
}

// writeChanges writes cs with a writer of options o, applies them to m and returns the prepared
// (uncommitted) commit messages.
func writeChanges(t *testing.T, tbl *table.Table, m *model, o write.Options, cs []change) []table.CommitMessage {
	t.Helper()
	rows := make([]roundtrip.Change, len(cs))
	for i, c := range cs {
		rows[i] = roundtrip.Change{Kind: c.kind, Row: []any{c.id, c.v, c.dt}}
		m.apply(c)
	}
	return roundtrip.Write(t, tbl, o, rows)
}

// commitChanges writes changes in one commit (user "loader") and applies them to m.
func commitChanges(t *testing.T, tbl *table.Table, m *model, cs []change) int64 {
	t.Helper()
	return roundtrip.Commit(t, tbl, writeChanges(t, tbl, m, write.Options{CompactsBeforePublish: true}, cs), "loader")
}

// visible reads tbl as Java's batch read would (level 0 skipped where Java skips it).
func visible(t *testing.T, tbl *table.Table) []string {
	t.Helper()
	_, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r)
	}
	sort.Strings(out)
	return out
}

// liveFiles returns the live data files of the latest snapshot.
func liveFiles(t *testing.T, tbl *table.Table) []manifest.ManifestEntry {
	t.Helper()
	ctx := context.Background()
	s, err := tbl.Snapshots().Latest(ctx)
	if err != nil || s == nil {
		t.Fatalf("latest snapshot: %v %v", s, err)
	}
	live, err := tbl.LiveFiles(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	return live
}

func ins(id int64, v, dt string) change { return change{spec.RowKindInsert, id, v, dt} }
func del(id int64, dt string) change    { return change{spec.RowKindDelete, id, "", dt} }

// wasEverCommitted reports whether any snapshot of tbl holds the data file name.
func wasEverCommitted(t *testing.T, tbl *table.Table, name string) bool {
	t.Helper()
	ctx := context.Background()
	ids, err := tbl.Snapshots().IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		s, err := tbl.Snapshots().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		live, err := tbl.LiveFiles(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range live {
			if e.File.FileName == name {
				return true
			}
		}
	}
	return false
}
