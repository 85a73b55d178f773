// Package tamper builds a small Paimon table on the local disk and tampers with its metadata and
// directories the way an attacker with write access to the table's files could: names of data files,
// manifests, manifest lists, statistics, index and changelog files that point outside the table, and
// directories replaced by symbolic links to directories outside it. Each tampering plants victim files
// outside the warehouse first; a maintenance command (expire, clean-orphans, compact, scan, drop) must
// leave every victim present and byte-identical (issue 14, findings 1 and 2).
//
// It serves tests only: paimon/maintain's containment tests and the CLI's hostile corpus
// (cmd/lakeload/cli_hostile_test.go) use the same cases.
package tamper

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/spec/manifest"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// Database and Name name the table: Dir/wh/db.db/t is lakeload's "--warehouse Dir/wh --table db.t".
const (
	Database = "db"
	Name     = "t"
)

// Table is an append table (id BIGINT, p STRING, partitioned by p) on local disk below Dir/wh, with
// Victim (Dir/victim) outside the warehouse for the victims.
type Table struct {
	Tbl    *table.Table
	Dir    string // holds wh/ and victim/
	Victim string // Dir/victim
}

// Warehouse is the table's warehouse directory (Dir/wh).
func (lt *Table) Warehouse() string { return filepath.Join(lt.Dir, "wh") }

// New creates the table below dir (a fresh directory); with external, its option
// data-file.external-paths names Victim/ext.
func New(t testing.TB, dir string, external bool) *Table {
	t.Helper()
	victim := filepath.Join(dir, "victim")
	var opts map[string]string
	if external {
		opts = map[string]string{"data-file.external-paths": filepath.ToSlash(filepath.Join(victim, "ext"))}
	}
	fs := local.New()
	path := filepath.ToSlash(filepath.Join(dir, "wh", Database+".db", Name))
	idT, _ := spec.ParseType("BIGINT")
	pT, _ := spec.ParseType("STRING")
	s, err := spec.NewSchema([]spec.DataField{{Name: "id", Type: idT}, {Name: "p", Type: pT}}, []string{"p"}, nil, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := table.NewSchemas(fs, path).Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	tbl, err := table.Open(ctx, fs, path, Database+"."+Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	return &Table{Tbl: tbl, Dir: dir, Victim: victim}
}

// Commit writes rows ids [from, to) in partition p as the next snapshot (an overwrite of the whole
// table with overwrite), committed a day ago plus one minute per snapshot id, so that expiry with any
// age limit up to a day treats it as old. It returns the snapshot id.
func (lt *Table) Commit(t testing.TB, from, to int64, p string, overwrite bool) int64 {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, lt.Tbl, write.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for id := from; id < to; id++ {
		if err := w.WriteRow(ctx, []any{id, p}, spec.RowKindInsert); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := w.Prepare(ctx)
	if err != nil {
		t.Fatal(err)
	}
	latest, _, _ := lt.Tbl.Snapshots().LatestID(ctx)
	at := time.Now().Add(-24*time.Hour + time.Duration(latest)*time.Minute)
	o := commit.Options{User: "u", Identifier: latest + 1, LookupAfter: -1, Now: func() time.Time { return at }}
	if overwrite {
		o.Overwrite = &commit.Overwrite{Table: true}
	}
	res, err := commit.Commit(ctx, lt.Tbl, msgs, o)
	if err != nil {
		t.Fatal(err)
	}
	return res.SnapshotID
}

// History commits snapshot 1 (rows 0..3 in p=a), 2 (an overwrite with rows 3..6 in p=a: its delta
// DELETEs snapshot 1's file) and 3 (rows 6..9 in p=a). Expiring all but one snapshot removes 1 and 2.
func (lt *Table) History(t testing.TB) {
	t.Helper()
	lt.Commit(t, 0, 3, "a", false)
	lt.Commit(t, 3, 6, "a", true)
	lt.Commit(t, 6, 9, "a", false)
}

// Plant writes a victim file outside the warehouse (below Victim), two days old, and returns its
// absolute path.
func (lt *Table) Plant(t testing.TB, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(lt.Victim, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// Rel is victim path p relative to directory dir of the table (e.g. "manifest", "p=a/bucket-0").
func (lt *Table) Rel(t testing.TB, dir, p string) string {
	t.Helper()
	r, err := filepath.Rel(filepath.Join(lt.Tbl.Path, dir), p)
	if err != nil || !strings.HasPrefix(r, "..") {
		t.Fatalf("rel %s from %s: %q, %v", p, dir, r, err)
	}
	return filepath.ToSlash(r)
}

// Snapshot reads snapshot id.
func (lt *Table) Snapshot(t testing.TB, id int64) *spec.Snapshot {
	t.Helper()
	s, err := lt.Tbl.Snapshots().Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// EditSnapshot rewrites snapshot id's JSON through edit.
func (lt *Table) EditSnapshot(t testing.TB, id int64, edit func(m map[string]any)) {
	t.Helper()
	p := lt.Tbl.Snapshots().Path(id)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ManifestPath is the path of manifest directory entry name.
func (lt *Table) ManifestPath(name string) string {
	return filepath.Join(lt.Tbl.Path, "manifest", name)
}

// EditManifests rewrites every manifest of list through edit.
func (lt *Table) EditManifests(t testing.TB, list string, edit func([]manifest.ManifestEntry) []manifest.ManifestEntry) {
	t.Helper()
	ctx := context.Background()
	metas, err := lt.Tbl.ReadManifestList(ctx, list)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metas {
		es, err := lt.Tbl.ReadManifest(ctx, m.FileName)
		if err != nil {
			t.Fatal(err)
		}
		lt.WriteManifest(t, m.FileName, edit(es))
	}
}

// WriteManifest writes manifest name with entries es.
func (lt *Table) WriteManifest(t testing.TB, name string, es []manifest.ManifestEntry) {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, es); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lt.ManifestPath(name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteList writes manifest list name with metas.
func (lt *Table) WriteList(t testing.TB, name string, metas []manifest.ManifestFileMeta) {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lt.ManifestPath(name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// IndexManifestBytes encodes an index manifest of es.
func IndexManifestBytes(t testing.TB, es []manifest.IndexManifestEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := manifest.WriteIndexManifest(&buf, es); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// FirstEntry is an entry of snapshot 1's delta (a real data file entry to copy) and its manifest.
func (lt *Table) FirstEntry(t testing.TB) (manifest.ManifestEntry, manifest.ManifestFileMeta) {
	t.Helper()
	ctx := context.Background()
	s := lt.Snapshot(t, 1)
	metas, err := lt.Tbl.ReadManifestList(ctx, s.DeltaManifestList)
	if err != nil || len(metas) == 0 {
		t.Fatalf("delta of snapshot 1: %v, %v", metas, err)
	}
	es, err := lt.Tbl.ReadManifest(ctx, metas[0].FileName)
	if err != nil || len(es) == 0 {
		t.Fatalf("manifest %s: %v, %v", metas[0].FileName, es, err)
	}
	return es[0], metas[0]
}

// Survive fails the test for every victim that is gone or changed.
func Survive(t testing.TB, victims map[string][]byte) {
	t.Helper()
	for p, want := range victims {
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("victim %s outside the warehouse was deleted or changed (%v)", p, err)
		}
	}
}

func strPtr(s string) *string { return &s }
