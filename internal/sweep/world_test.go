package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"testing"
	"time"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio"
	"github.com/lakeload/lakeload/fileio/errorfs"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/internal/loadtest"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/catalog"
	"github.com/lakeload/lakeload/paimon/table"
)

const (
	warehouse = "/wh"
	jobName   = "sweep"
)

// clock is the fixed time every run sees.
var clock = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// load is one fixture with its encoded input files and the job's window size.
type load struct {
	fx         loadtest.Fixture
	inputs     map[string][]byte // file name → bytes
	inputDir   string            // where the input lives, on local disk (RAM) and in every world's mem FS
	commitRows int64
	expected   []string
}

// newLoad encodes the fixture's input (through loadtest's writers on a RAM temp dir). The job's
// planner expands its glob on local disk (source/file.Plan), so the files stay there too; the job
// reads them through InputFS, a world's mem FS holding the same files at the same paths.
func newLoad(t *testing.T, fx loadtest.Fixture, commitRows int64) *load {
	t.Helper()
	dir := loadtest.TempDir(t)
	fx.WriteInputs(t, dir)
	l := &load{fx: fx, inputs: map[string][]byte{}, inputDir: filepath.ToSlash(dir), commitRows: commitRows, expected: fx.Expected(t)}
	for _, f := range fx.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		l.inputs[f.Name] = b
	}
	return l
}

func (l *load) tablePath() string { return l.fx.TablePath(warehouse) }
func (l *load) storePath() string {
	return fileio.Join(warehouse, ".lakeload", "jobs", loadtest.Database, l.fx.Name, jobName)
}

// world is the storage of one history: input, table and store on one in-memory file system.
type world struct {
	l  *load
	fs *mem.FS
}

// newWorld writes the input and creates the table, outside of any fault injection.
func (l *load) newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	w := &world{l: l, fs: mem.New()}
	for name, b := range l.inputs {
		if err := w.fs.WriteIfAbsent(ctx, fileio.Join(l.inputDir, name), b); err != nil {
			t.Fatal(err)
		}
	}
	if err := catalog.New(w.fs, warehouse).CreateTable(ctx, l.fx.Ident(), l.fx.Schema(t), false); err != nil {
		t.Fatal(err)
	}
	return w
}

// outcome is how one run ended.
type outcome struct {
	err      error
	panicked bool
	res      job.Result
	ops      int64
	injected []errorfs.Op
	log      []errorfs.Op
}

// run opens the table and runs the job, every I/O call through an errorfs wrapper with in/mode.
func (w *world) run(in errorfs.Injector, mode errorfs.Mode, record bool) (out outcome) {
	fs := errorfs.Wrap(w.fs, in, mode)
	if record {
		fs.Record()
	}
	defer func() {
		if r := recover(); r != nil {
			out.err, out.panicked = fmt.Errorf("job.Run panicked: %v\n%s", r, debug.Stack()), true
		}
		out.ops, out.injected, out.log = fs.Ops(), fs.Injected(), fs.Log()
	}()
	ctx := context.Background()
	tbl, err := table.Open(ctx, fs, w.l.tablePath(), w.l.fx.Name)
	if err != nil {
		out.err = err
		return out
	}
	out.res, out.err = job.Run(ctx, job.Config{
		Spec:    job.Spec{Name: jobName, Input: job.Input{From: []string{w.l.inputDir + "/in-*"}, OpColumn: w.l.fx.OpColumn}, CommitRows: w.l.commitRows, Parallelism: 1, Takeover: true},
		Table:   tbl,
		InputFS: fs,
		Store:   checkpoint.NewStore(fs, w.l.storePath()),
		Now:     func() time.Time { return clock },
	})
	return out
}

// uuidRE matches the UUIDs in generated file names, which differ between runs.
var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// shape is an operation with its UUIDs blanked, comparable across runs.
func shape(op errorfs.Op) string {
	return op.Kind.String() + " " + uuidRE.ReplaceAllString(op.Path, "<uuid>")
}
