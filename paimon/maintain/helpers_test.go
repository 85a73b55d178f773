package maintain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/paimon/commit"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/paimon/write"
)

// maxRetain is Java's Integer.MAX_VALUE, the default of snapshot.num-retained.max.
const maxRetain = math.MaxInt32

// t0 is the commit time of snapshot 1 in these tests; snapshot i is committed at t0 + (i-1) minutes.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func snapTime(id int64) time.Time { return t0.Add(time.Duration(id-1) * time.Minute) }

// fixture is a table built on an in-memory file system with the rows each snapshot shows.
type fixture struct {
	fs   *mem.FS
	tbl  *table.Table
	rows map[int64][]string // snapshot id → sorted "id|p" lines (the model)
}

const tablePath = "/wh/db.db/t"

// newFixture creates an append table (id BIGINT, p STRING) partitioned by p with opts.
func newFixture(t testing.TB, opts map[string]string) *fixture {
	t.Helper()
	fs := mem.New()
	idT, _ := spec.ParseType("BIGINT")
	pT, _ := spec.ParseType("STRING")
	s, err := spec.NewSchema([]spec.DataField{{Name: "id", Type: idT}, {Name: "p", Type: pT}}, []string{"p"}, nil, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := table.NewSchemas(fs, tablePath).Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	return &fixture{fs: fs, tbl: openOn(t, fs), rows: map[int64][]string{}}
}

func openOn(t testing.TB, fs fileio.FileIO) *table.Table {
	t.Helper()
	tbl, err := table.Open(context.Background(), fs, tablePath, "db.t")
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// commit writes rows ids [from, to) in partition p as the next snapshot. With overwrite it replaces
// the whole table. It returns the snapshot id.
func (f *fixture) commit(t testing.TB, from, to int64, p string, overwrite bool) int64 {
	t.Helper()
	ctx := context.Background()
	w, err := write.New(ctx, f.tbl, write.Options{})
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
	latest, _, _ := f.tbl.Snapshots().LatestID(ctx)
	o := commit.Options{User: "u", Identifier: latest + 1, LookupAfter: -1, Now: func() time.Time { return snapTime(latest + 1) }}
	if overwrite {
		o.Overwrite = &commit.Overwrite{Table: true}
	}
	res, err := commit.Commit(ctx, f.tbl, msgs, o)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	if !overwrite {
		lines = append(lines, f.rows[latest]...)
	}
	for id := from; id < to; id++ {
		lines = append(lines, fmt.Sprintf("%d|%s", id, p))
	}
	sort.Strings(lines)
	f.rows[res.SnapshotID] = lines
	return res.SnapshotID
}

// readLines reads snapshot id of tbl as sorted "id|p" lines.
func readLines(tbl *table.Table, id int64) ([]string, error) {
	_, rows, err := read.Rows(context.Background(), tbl, read.ScanOptions{SnapshotID: id})
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%v|%v", r[0], r[1])
	}
	sort.Strings(out)
	return out, nil
}

// checkSnapshots asserts that the table's snapshots are exactly ids [from, to], each read completely
// with the model's rows, and that every snapshot before from fails to read with a not-exist error.
func (f *fixture) checkSnapshots(t testing.TB, tbl *table.Table, from, to int64) {
	t.Helper()
	ids, err := tbl.Snapshots().IDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for id := from; id <= to; id++ {
		want = append(want, id)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("snapshots %v, want %v", ids, want)
	}
	for _, id := range ids {
		got, err := readLines(tbl, id)
		if err != nil {
			t.Fatalf("retained snapshot %d unreadable: %v", id, err)
		}
		if !slices.Equal(got, f.rows[id]) {
			t.Fatalf("snapshot %d: %v, want %v", id, got, f.rows[id])
		}
	}
	for id := int64(1); id < from; id++ {
		if _, err := readLines(tbl, id); !errors.Is(err, fileio.ErrNotExist) {
			t.Fatalf("expired snapshot %d: read error %v, want not-exist", id, err)
		}
	}
}

// files lists every regular file under the table directory, sorted, relative to it.
func files(t testing.TB, fs fileio.FileIO) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		infos, err := fs.List(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, fi := range infos {
			if fi.IsDir {
				walk(fi.Path)
			} else {
				out = append(out, strings.TrimPrefix(fi.Path, tablePath+"/"))
			}
		}
	}
	walk(tablePath)
	sort.Strings(out)
	return out
}

// dataFiles returns the relative paths of the data files (parquet) among fs's table files.
func dataFiles(t testing.TB, fs fileio.FileIO) []string {
	var out []string
	for _, p := range files(t, fs) {
		if strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
	}
	return out
}

// referenced returns the relative paths of every file the given snapshots reference, computed
// naively: lists, their manifests, and the data files of every entry.
func referenced(t testing.TB, tbl *table.Table, snaps ...*spec.Snapshot) map[string]bool {
	t.Helper()
	ctx := context.Background()
	out := map[string]bool{}
	paths := tbl.NewPaths()
	for _, s := range snaps {
		for _, l := range []string{s.BaseManifestList, s.DeltaManifestList} {
			out["manifest/"+l] = true
			metas, err := tbl.ReadManifestList(ctx, l)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range metas {
				out["manifest/"+m.FileName] = true
				es, err := tbl.ReadManifest(ctx, m.FileName)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range es {
					p, err := paths.DataFile(e.Partition, e.Bucket, e.File.FileName, nil)
					if err != nil {
						t.Fatal(err)
					}
					out[strings.TrimPrefix(p, tablePath+"/")] = true
				}
			}
		}
	}
	return out
}

func getSnapshot(t testing.TB, tbl *table.Table, id int64) *spec.Snapshot {
	t.Helper()
	s, err := tbl.Snapshots().Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fixed returns a clock stopped at tm.
func fixed(tm time.Time) func() time.Time { return func() time.Time { return tm } }
