package job

// Stores written by an earlier lakeload resume unchanged (issue 17 finding 2: checkpoint stores
// commit messages and splits as opaque JSON; the bytes on disk must not change). testdata/compat-v1
// holds whole worlds — a table, its input files and a job's checkpoint store, crashed at one point —
// written by the lakeload of commit bd40d28 (before the change) with -write-compat-worlds. The test
// restores each world, checks the recovery decision and the resumed table against what that
// lakeload recorded, and (checkpoint's TestCompatStoresReencodeByteForByte) that every record
// re-encodes to its bytes.

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
)

var writeCompatWorlds = flag.Bool("write-compat-worlds", false, "write testdata/compat-v1 with this lakeload (only to make new worlds)")

const compatDir = "testdata/compat-v1"

// compatWorld is one crashed job: the point and window of the crash. With before set, a first
// run stops there (after-publish of window 1) or, with incremental, finishes; then before changes
// the inputs and the second run crashes at point.
type compatWorld struct {
	name        string
	point       string
	window      int64
	incremental bool
	before      func(t *testing.T, fs fileio.FileIO)
}

var compatWorlds = []compatWorld{
	{"after-commit-w3", PointAfterCommit, 3, false, nil},
	{"task-written-w2", PointTaskWritten, 2, false, nil},
	{"before-commit-w2", PointBeforeCommit, 2, false, nil},
	{"before-publish-w4", PointBeforePublish, 4, false, nil},
	// b.csv is replaced before any of its splits was assigned: a plan revision.
	{"replanned-after-commit-w4", PointAfterCommit, 4, false, func(t *testing.T, fs fileio.FileIO) {
		must(t, fs.Delete(bg, "s3://inputs/in/b.csv"))
		writeCSV(t, fs, "b.csv", 2100, 2600, 7)
	}},
	// a second generation loads c.csv, added after the first finished.
	{"generation2-after-commit-w5", PointAfterCommit, 5, true, func(t *testing.T, fs fileio.FileIO) {
		writeCSV(t, fs, "c.csv", 5000, 5300, 3)
	}},
}

// writeCSV writes the input file name with ids from..to-1 and amounts id·10+k.
func writeCSV(t *testing.T, fs fileio.FileIO, name string, from, to, k int) {
	var b strings.Builder
	b.WriteString("id,amount\n")
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i, i*10+k)
	}
	must(t, fs.WriteIfAbsent(bg, "s3://inputs/in/"+name, []byte(b.String())))
}

// compatClock is the fixed time of every record and input file of the worlds.
var compatClock = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

// timesFS serves the modification times recorded with a world for the files restored from it
// (the mem backend stamps files with the time they were written; splits fingerprint inputs by time).
type timesFS struct {
	fileio.FileIO
	times map[string]time.Time
}

func (f timesFS) fix(i fileio.FileInfo) fileio.FileInfo {
	if t, ok := f.times[i.Path]; ok && !i.IsDir {
		i.ModTime = t
	}
	return i
}

func (f timesFS) Stat(ctx context.Context, p string) (fileio.FileInfo, error) {
	i, err := f.FileIO.Stat(ctx, p)
	return f.fix(i), err
}

func (f timesFS) List(ctx context.Context, dir string) ([]fileio.FileInfo, error) {
	l, err := f.FileIO.List(ctx, dir)
	for k := range l {
		l[k] = f.fix(l[k])
	}
	return l, err
}

// compatConfig is the world's job: two CSV files (in a bucket, so the glob lists the mem backend), the first cut into byte ranges, windows of 500 rows.
func compatConfig(fs fileio.FileIO, tbl *table.Table, incremental bool, hook func(string, int64) error) Config {
	return Config{Spec: Spec{Incremental: incremental, Name: "compat", Input: Input{From: []string{"s3://inputs/in/*.csv"}},
		CommitRows: 500, Parallelism: 2, SplitTasks: true}, Table: tbl, InputFS: fs, Store: checkpoint.NewStore(fs, "/ckpt/compat"),
		Hook: hook, Now: func() time.Time { return compatClock }, Logger: slog.New(slog.DiscardHandler)}
}

func compatTable(t *testing.T, fs fileio.FileIO) *table.Table {
	t.Helper()
	cat := catalog.New(fs, "/wh")
	return mustGet(cat.LoadTable(bg, catalog.Identifier{Database: "shop", Table: "orders"}))
}

// mustGet returns v, panicking (failing the test) on an error.
func mustGet[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var bg = context.Background()

// makeCompatWorld creates the table and inputs on fs and runs the job into the world's crash.
func makeCompatWorld(t *testing.T, fs fileio.FileIO, w compatWorld) {
	cat := catalog.New(fs, "/wh")
	id := catalog.Identifier{Database: "shop", Table: "orders"}
	key := mustGet(spec.ParseType("BIGINT NOT NULL"))
	amount := mustGet(spec.ParseType("BIGINT"))
	schema := mustGet(spec.NewSchema([]spec.DataField{{ID: 0, Name: "id", Type: key}, {ID: 1, Name: "amount", Type: amount}},
		nil, []string{"id"}, map[string]string{"bucket": "2"}, nil))
	if err := cat.CreateDatabase(bg, id.Database, true); err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateTable(bg, id, schema, false); err != nil {
		t.Fatal(err)
	}
	writeCSV(t, fs, "a.csv", 0, 2600, 5)
	writeCSV(t, fs, "b.csv", 2000, 2400, 5)
	crash := errors.New("compat: simulated crash")
	crashAt := func(point string, window int64) func(string, int64) error {
		return func(p string, win int64) error {
			if p == point && win == window {
				return crash
			}
			return nil
		}
	}
	if w.before != nil {
		first := crashAt(PointAfterPublish, 1)
		if w.incremental {
			first = nil
		}
		_, err := Run(bg, compatConfig(fs, compatTable(t, fs), w.incremental, first))
		if w.incremental && err != nil || !w.incremental && !errors.Is(err, crash) {
			t.Fatalf("first run: %v", err)
		}
		w.before(t, fs)
	}
	if _, err := Run(bg, compatConfig(fs, compatTable(t, fs), w.incremental, crashAt(w.point, w.window))); !errors.Is(err, crash) {
		t.Fatalf("run: %v, want the crash", err)
	}
}

// walk lists every file below dir.
func walk(t *testing.T, fs fileio.FileIO, dir string) []fileio.FileInfo {
	var out []fileio.FileInfo
	for _, e := range mustGet(fs.List(bg, dir)) {
		if e.IsDir {
			out = append(out, walk(t, fs, e.Path)...)
		} else {
			out = append(out, e)
		}
	}
	return out
}

// saveWorld writes every file of fs into dir/tree and their times into dir/times.
func saveWorld(t *testing.T, fs fileio.FileIO, dir string) {
	var times []string
	for _, root := range []string{"/wh", "s3://inputs/in", "/ckpt"} {
		for _, f := range walk(t, fs, root) {
			dst := treePath(dir, f.Path)
			must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
			must(t, os.WriteFile(dst, mustGet(fs.ReadFile(bg, f.Path)), 0o644))
			times = append(times, fmt.Sprintf("%s %d", f.Path, f.ModTime.UnixNano()))
		}
	}
	sort.Strings(times)
	must(t, os.WriteFile(filepath.Join(dir, "times"), []byte(strings.Join(times, "\n")+"\n"), 0o644))
}

// treePath is where the file at p is kept in the world at dir ("s3://b/k" under s3/b/k).
func treePath(dir, p string) string {
	return filepath.Join(dir, "tree", filepath.FromSlash(strings.Replace(p, "://", "/", 1)))
}

// restoreWorld reads dir back into a fresh mem file system.
func restoreWorld(t *testing.T, dir string) fileio.FileIO {
	fs := timesFS{FileIO: mem.New(), times: map[string]time.Time{}}
	for _, line := range strings.Split(strings.TrimSpace(string(mustGet(os.ReadFile(filepath.Join(dir, "times"))))), "\n") {
		p, ns, _ := strings.Cut(line, " ")
		n := mustGet(strconv.ParseInt(ns, 10, 64))
		fs.times[p] = time.Unix(0, n).UTC()
		must(t, fs.WriteIfAbsent(bg, p, mustGet(os.ReadFile(treePath(dir, p)))))
	}
	return fs
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// compatDecision renders the recovery plan of the world's store over its table.
func compatDecision(t *testing.T, fs fileio.FileIO) string {
	tbl := compatTable(t, fs)
	st := mustGet(checkpoint.NewStore(fs, "/ckpt/compat").Load(bg))
	tv := mustGet(gatherTableView(bg, st, tbl.Snapshots(), (&driver{t: tbl}).missingFiles))
	plan := mustGet(checkpoint.Decide(st, tv))
	var b strings.Builder
	for _, a := range plan.Actions {
		fmt.Fprintf(&b, "%s\n", a)
	}
	fmt.Fprintf(&b, "next window %d\nremaining %v\n", plan.NextWindow, plan.Remaining)
	return b.String()
}

// compatResume resumes the world's job to its end and renders the table's rows: their number, the
// first and the SHA-256 of all.
func compatResume(t *testing.T, fs fileio.FileIO, incremental bool) string {
	tbl := compatTable(t, fs)
	if _, err := Run(bg, compatConfig(fs, tbl, incremental, nil)); err != nil {
		t.Fatalf("resume: %v", err)
	}
	lines := loadtest.Lines(t, compatTable(t, fs))
	return fmt.Sprintf("%d rows, first %q, sha256 %x\n", len(lines), lines[0], sha256.Sum256([]byte(strings.Join(lines, "\n"))))
}

// TestStoresOfEarlierLakeloadResume: each world written by the earlier lakeload decides and resumes
// as it did there (decision and resumed rows recorded with the world).
func TestStoresOfEarlierLakeloadResume(t *testing.T) {
	for _, w := range compatWorlds {
		t.Run(w.name, func(t *testing.T) {
			dir := filepath.Join(compatDir, w.name)
			if *writeCompatWorlds {
				must(t, os.RemoveAll(dir))
				fs := timesFS{FileIO: mem.New()}
				makeCompatWorld(t, fs, w)
				saveWorld(t, fs, dir)
				fs2 := restoreWorld(t, dir)
				must(t, os.WriteFile(filepath.Join(dir, "decision"), []byte(compatDecision(t, fs2)), 0o644))
				must(t, os.WriteFile(filepath.Join(dir, "resumed-rows"), []byte(compatResume(t, fs2, w.incremental)), 0o644))
				return
			}
			fs := restoreWorld(t, dir)
			if got, want := compatDecision(t, fs), string(mustGet(os.ReadFile(filepath.Join(dir, "decision")))); got != want {
				t.Fatalf("decision over the earlier lakeload's store:\n%s\nit decided:\n%s", got, want)
			}
			if got, want := compatResume(t, fs, w.incremental), string(mustGet(os.ReadFile(filepath.Join(dir, "resumed-rows")))); got != want {
				t.Fatalf("resumed rows differ from the earlier lakeload's:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
