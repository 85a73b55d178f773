package job

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/local"
	"github.com/lakeload/lakeload/internal/canon"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/internal/oracle"
	"github.com/lakeload/lakeload/internal/s3test"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

// concStorage is where the concurrent-writer tests keep a warehouse and the jobs' stores: every
// job gets its own FileIO (as a separate process would). localRoot is root as a local directory
// for the oracles (on S3, versitygw's POSIX directory).
type concStorage struct {
	name            string
	root, localRoot string
	newFS           func(t testing.TB) fileio.FileIO
}

// concStorages runs body as the subtests "local" and "s3" (skipped without versitygw).
func concStorages(t *testing.T, body func(t *testing.T, s concStorage)) {
	t.Run("local", func(t *testing.T) {
		dir := loadtest.TempDir(t)
		body(t, concStorage{name: "local", root: dir, localRoot: dir, newFS: concStoragesLocalFS})
	})
	t.Run("s3", func(t *testing.T) {
		srv := s3test.Start(t)
		body(t, concStorage{name: "s3", root: srv.URI("conc"), localRoot: filepath.Join(srv.Dir, srv.Bucket, "conc"),
			newFS: func(t testing.TB) fileio.FileIO { return newS3FS(t, srv, nil) }})
	})
}

// concStoragesLocalFS is the FileIO of a local concStorage.
func concStoragesLocalFS(testing.TB) fileio.FileIO { return local.New() }

// concIdent is the table of the concurrent-writer tests: a partitioned deduplicate primary-key
// table (dt STRING, id BIGINT, v STRING), primary key (dt, id), 2 buckets.
var concIdent = catalog.Identifier{Database: "db", Table: "t"}

// concFields are its columns.
func concFields(t testing.TB) []spec.DataField {
	t.Helper()
	var fields []spec.DataField
	for i, c := range [][2]string{{"dt", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"v", "STRING"}} {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		fields = append(fields, spec.DataField{ID: i, Name: c[0], Type: typ})
	}
	return fields
}

// createConcTable creates db.t under s.root/wh.
func createConcTable(t testing.TB, s concStorage) {
	t.Helper()
	schema, err := spec.NewSchema(concFields(t), []string{"dt"}, []string{"dt", "id"}, map[string]string{"bucket": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := catalog.New(s.newFS(t), fileio.Join(s.root, "wh")).CreateTable(context.Background(), concIdent, schema, false); err != nil {
		t.Fatal(err)
	}
}

// openConcTable opens db.t with a FileIO of its own.
func openConcTable(t testing.TB, s concStorage) *table.Table {
	t.Helper()
	tbl, err := catalog.New(s.newFS(t), fileio.Join(s.root, "wh")).LoadTable(context.Background(), concIdent)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// concRow is one input row (dt, id, v).
type concRow struct {
	dt string
	id int64
	v  string
}

// writeConcInput writes one CSV file per window (files[w-1] holds window w's rows, in order) under
// a fresh local directory and returns their glob.
func writeConcInput(t testing.TB, files [][]concRow) string {
	t.Helper()
	dir := loadtest.TempDir(t)
	for i, rows := range files {
		var b strings.Builder
		b.WriteString("dt,id,v\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "%s,%d,%s\n", r.dt, r.id, r.v)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in-%02d.csv", i+1)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "*.csv")
}

var concJobSeq atomic.Int64

// concJob is the Config of one job over the files of glob: one file per window (CommitRows 1), its
// own table handle and its own checkpoint store under s.root/stores.
func concJob(t testing.TB, s concStorage, name, glob string) Config {
	return Config{
		Spec:    Spec{Name: name, Input: Input{From: []string{glob}}, CommitRows: 1, Parallelism: 1},
		Table:   openConcTable(t, s),
		InputFS: local.New(),
		Store:   checkpoint.NewStore(s.newFS(t), fileio.Join(s.root, "stores", fmt.Sprintf("%s-%d", name, concJobSeq.Add(1)))),
	}
}

// concModel applies rows in the given order (later rows replace earlier ones of the same key) and
// returns the expected table as sorted canonical lines.
func concModel(t testing.TB, order ...[]concRow) []string {
	t.Helper()
	last := map[[2]any]concRow{}
	for _, rows := range order {
		for _, r := range rows {
			last[[2]any{r.dt, r.id}] = r
		}
	}
	var rows [][]any
	for _, r := range last {
		rows = append(rows, []any{r.dt, r.id, r.v})
	}
	lines, err := canon.Rows(concFields(t), rows)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return lines
}

// checkConcTable compares the table with want through lakeload's reader and Java Paimon.
func checkConcTable(t *testing.T, s concStorage, want []string) {
	t.Helper()
	if d := loadtest.Diff(want, loadtest.Lines(t, openConcTable(t, s))); d != "" {
		t.Errorf("lakeload reads the table differently from the model:%s", d)
	}
	path := filepath.Join(s.localRoot, "wh", "db.db", "t")
	if d := loadtest.Diff(want, oracle.Java(t).Read(path, oracle.ReadOpts{})); d != "" {
		t.Errorf("Java Paimon reads the table differently from the model:%s", d)
	}
}

// checkJobMarkers requires one APPEND snapshot per window 1..windows of the job of cfg, and no
// other snapshot of its commit user; it returns the windows' snapshot ids.
func checkJobMarkers(t *testing.T, cfg Config, windows int64) []int64 {
	t.Helper()
	st, err := cfg.Store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	jr, ok := st.Job()
	if !ok {
		t.Fatalf("job %s: no job record", cfg.Name)
	}
	if _, done := st.Done(); !done {
		t.Errorf("job %s not done", cfg.Name)
	}
	var ids []int64
	for w := int64(1); w <= windows; w++ {
		found := loadtest.WindowCommits(t, cfg.Table, jr.CommitUser, w)
		if len(found) != 1 {
			t.Fatalf("job %s window %d: %d marker snapshots, want 1", cfg.Name, w, len(found))
		}
		ids = append(ids, found[0].ID)
	}
	if all := loadtest.SnapshotsOf(t, cfg.Table, jr.CommitUser); int64(len(all)) != windows {
		t.Errorf("job %s: its commit user made %d snapshots for %d windows", cfg.Name, len(all), windows)
	}
	return ids
}
