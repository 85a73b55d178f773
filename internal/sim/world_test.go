package sim

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/lakeload/lakeload/checkpoint"
	"github.com/lakeload/lakeload/fileio/mem"
	"github.com/lakeload/lakeload/job"
	"github.com/lakeload/lakeload/paimon/read"
	"github.com/lakeload/lakeload/paimon/spec"
	"github.com/lakeload/lakeload/paimon/table"
	"github.com/lakeload/lakeload/source"
)

const (
	tablePath = "/wh/db.db/t"
	storePath = "/wh/.lakeload/jobs/db/t/sim"
	jobName   = "sim"
)

// clock is the fixed time every simulated process sees.
var clock = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// row is one input row: its op (for the deduplicate table) and its values in table column order.
type row struct {
	op   string
	vals []any
}

// inputFile is one input file and how it is cut into splits (row ranges; nil: one split, whole file).
type inputFile struct {
	name   string
	format string
	rows   []row
	ranges [][2]int64 // [start, count) per split
}

// kind is a table under test: its schema, its input and how to compute its expected content.
type kind struct {
	name     string
	cols     [][2]string // name, type
	part, pk []string
	opts     map[string]string
	opColumn string
	files    []inputFile
	// expect applies the rows, in input order, to an empty table and renders the result.
	expect func(rows []row) []string
}

// aggKind is a primary-key table with aggregation sum: a window committed twice doubles its sums.
func aggKind() kind {
	r := func(id, v int64) row { return row{vals: []any{id, v}} }
	return kind{
		name: "agg-sum",
		cols: [][2]string{{"id", "BIGINT NOT NULL"}, {"v", "BIGINT"}},
		pk:   []string{"id"},
		opts: map[string]string{"bucket": "2", "merge-engine": "aggregation", "fields.v.aggregate-function": "sum", "file.format": "parquet"},
		files: []inputFile{
			{name: "a.csv", format: source.FormatCSV, rows: []row{r(1, 10), r(2, 20), r(3, 30)}},
			{name: "empty.csv", format: source.FormatCSV},
			{name: "b.parquet", format: source.FormatParquet, rows: []row{r(1, 1), r(2, 2), r(4, 4), r(1, 100)},
				ranges: [][2]int64{{0, 2}, {2, 2}}},
		},
		expect: func(rows []row) []string {
			sum := map[int64]int64{}
			for _, r := range rows {
				sum[r.vals[0].(int64)] += r.vals[1].(int64)
			}
			var out []string
			for id, v := range sum {
				out = append(out, render([]any{id, v}))
			}
			slices.Sort(out)
			return out
		},
	}
}

// dedupKind is a partitioned deduplicate table loaded with upserts and deletes (op column).
func dedupKind() kind {
	r := func(op, p string, id int64, name string) row { return row{op: op, vals: []any{p, id, name}} }
	return kind{
		name:     "dedup-deletes",
		cols:     [][2]string{{"p", "STRING NOT NULL"}, {"id", "BIGINT NOT NULL"}, {"name", "STRING"}},
		part:     []string{"p"},
		pk:       []string{"p", "id"},
		opts:     map[string]string{"bucket": "1", "file.format": "parquet"},
		opColumn: "op",
		files: []inputFile{
			{name: "a.csv", format: source.FormatCSV, rows: []row{r("+I", "x", 1, "a"), r("+I", "y", 2, "b"), r("+I", "x", 3, "c")}},
			{name: "empty.csv", format: source.FormatCSV},
			{name: "b.parquet", format: source.FormatParquet,
				rows:   []row{r("+U", "x", 1, "a2"), r("-D", "x", 3, "c"), r("+I", "y", 4, "d"), r("-D", "x", 1, "a2")},
				ranges: [][2]int64{{0, 2}, {2, 2}}},
		},
		expect: func(rows []row) []string {
			state := map[string][]any{}
			for _, r := range rows {
				k := fmt.Sprint(r.vals[0], "/", r.vals[1])
				if r.op == "-D" || r.op == "-U" {
					delete(state, k)
				} else {
					state[k] = r.vals
				}
			}
			var out []string
			for _, v := range state {
				out = append(out, render(v))
			}
			slices.Sort(out)
			return out
		},
	}
}

func render(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, "|")
}

// scene is one table kind with its input written to memory and planned into windows' splits.
type scene struct {
	k         kind
	input     *mem.FS
	splits    []source.Split
	rows      []row   // the input of the planned splits, in input order
	splitRows [][]row // the rows of each planned split
}

// newScene writes k's input files and plans its first `windows` splits (one split per window).
func newScene(t testing.TB, k kind, windows int) *scene {
	t.Helper()
	ctx := context.Background()
	s := &scene{k: k, input: mem.New()}
	type planned struct {
		split source.Split
		rows  []row
	}
	var all []planned
	for _, f := range k.files {
		path := "/in/" + f.name
		data := encodeFile(t, k, f)
		if err := s.input.WriteIfAbsent(ctx, path, data); err != nil {
			t.Fatal(err)
		}
		info, err := s.input.Stat(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		base := source.Split{Path: path, Format: f.format, Size: info.Size, ModTimeUnixNano: info.ModTime.UnixNano(), RowCount: -1}
		if f.ranges == nil {
			all = append(all, planned{base, f.rows})
			continue
		}
		for _, rg := range f.ranges {
			sp := base
			sp.RowStart, sp.RowCount = rg[0], rg[1]
			all = append(all, planned{sp, f.rows[rg[0] : rg[0]+rg[1]]})
		}
	}
	if windows > len(all) {
		t.Fatalf("%s has %d splits, %d windows asked", k.name, len(all), windows)
	}
	for _, p := range all[:windows] {
		s.splits = append(s.splits, p.split)
		s.rows = append(s.rows, p.rows...)
		s.splitRows = append(s.splitRows, p.rows)
	}
	return s
}

// encodeFile renders f as CSV or Parquet with the op column first when the kind has one.
func encodeFile(t testing.TB, k kind, f inputFile) []byte {
	t.Helper()
	var names []string
	if k.opColumn != "" {
		names = append(names, k.opColumn)
	}
	for _, c := range k.cols {
		names = append(names, c[0])
	}
	cells := func(r row) []any {
		if k.opColumn != "" {
			return append([]any{r.op}, r.vals...)
		}
		return r.vals
	}
	switch f.format {
	case source.FormatCSV:
		var b strings.Builder
		b.WriteString(strings.Join(names, ",") + "\n")
		for _, r := range f.rows {
			b.WriteString(strings.ReplaceAll(render(cells(r)), "|", ",") + "\n")
		}
		return []byte(b.String())
	case source.FormatParquet:
		fields := make([]arrow.Field, len(names))
		for i, n := range names {
			typ := arrow.DataType(arrow.BinaryTypes.String)
			if i >= len(names)-len(k.cols) && strings.HasPrefix(k.cols[i-(len(names)-len(k.cols))][1], "BIGINT") {
				typ = arrow.PrimitiveTypes.Int64
			}
			fields[i] = arrow.Field{Name: n, Type: typ, Nullable: true}
		}
		schema := arrow.NewSchema(fields, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		for _, r := range f.rows {
			for i, v := range cells(r) {
				switch x := v.(type) {
				case string:
					b.Field(i).(*array.StringBuilder).Append(x)
				case int64:
					b.Field(i).(*array.Int64Builder).Append(x)
				default:
					t.Fatalf("unexpected input value %T", v)
				}
			}
		}
		rec := b.NewRecordBatch()
		defer rec.Release()
		var buf bytes.Buffer
		w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(3)), pqarrow.DefaultWriterProps())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	t.Fatalf("format %s", f.format)
	return nil
}

// world is one simulated history: the shared storage of table and store, and the scene's input.
type world struct {
	t     testing.TB
	sc    *scene
	fs    *mem.FS
	notes []string // what happened, for failure messages
	plan  []string // the faults of its runs so far (deterministic, unlike notes: file names hold UUIDs)
	extra []row    // rows another writer committed (world events), in commit order
}

func (sc *scene) newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{t: t, sc: sc, fs: mem.New()}
	fields := make([]spec.DataField, len(sc.k.cols))
	for i, c := range sc.k.cols {
		typ, err := spec.ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		fields[i] = spec.DataField{Name: c[0], Type: typ}
	}
	s, err := spec.NewSchema(fields, sc.k.part, sc.k.pk, sc.k.opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.NewSchemas(w.fs, tablePath).Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return w
}

// config is the job configuration process p runs with. Every process runs with Takeover: all
// simulated processes share one pid, and the lease is advisory (safety never depends on it).
func (w *world) config(p *proc) (job.Config, error) {
	tbl, err := table.Open(context.Background(), p, tablePath, "db.t")
	if err != nil {
		return job.Config{}, err
	}
	return job.Config{
		Spec:    job.Spec{Name: jobName, Input: job.Input{OpColumn: w.sc.k.opColumn}, CommitRows: 1, Parallelism: 1, Takeover: true},
		Table:   tbl,
		InputFS: w.sc.input,
		Splits:  w.sc.splits,
		Store:   checkpoint.NewStore(p, storePath),
		Hook:    p.hook,
		Now:     func() time.Time { return clock },
	}, nil
}

// runOutcome is how one process ended.
type runOutcome struct {
	res     job.Result
	err     error
	crashed bool   // the process died by its fault
	diedAt  string // where
	ops     int    // storage mutations made
	hooks   int    // hook calls made
	trace   string // the hook calls and storage mutations, in order (paths shortened)
}

// start begins job.Run in process p on its own goroutine; the channel delivers how it ended.
func (w *world) start(p *proc) <-chan runOutcome {
	ch := make(chan runOutcome, 1)
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	p.cancel = cancel
	p.mu.Unlock()
	go func() {
		defer cancel()
		var out runOutcome
		defer func() {
			if r := recover(); r != nil {
				out.err = fmt.Errorf("job.Run panicked: %v\n%s", r, debug.Stack())
			}
			out.crashed, out.diedAt = p.crashed()
			out.ops, out.hooks = p.mutations(), p.hookCalls()
			p.mu.Lock()
			out.trace = shorten(strings.Join(p.trace, "; "))
			p.mu.Unlock()
			ch <- out
		}()
		cfg, err := w.config(p)
		if err != nil {
			out.err = err
			return
		}
		out.res, out.err = job.Run(ctx, cfg)
	}()
	return ch
}

// run runs process p to its end.
func (w *world) run(f fault) runOutcome {
	p := newProc(w.fs, f)
	return <-w.start(p)
}

// shorten drops the store and table roots from paths in s.
func shorten(s string) string {
	return strings.NewReplacer(storePath+"/", "store:", tablePath+"/", "table:").Replace(s)
}

// note records one step of the history for failure messages.
func (w *world) note(format string, args ...any) {
	w.notes = append(w.notes, fmt.Sprintf(format, args...))
}

func (w *world) history() string { return strings.Join(w.notes, "\n  ") }

// tableRows reads the table's latest snapshot and renders its rows sorted.
func (w *world) tableRows(ctx context.Context) ([]string, error) {
	tbl, err := table.Open(ctx, w.fs, tablePath, "db.t")
	if err != nil {
		return nil, err
	}
	latest, err := tbl.Snapshots().Latest(ctx)
	if err != nil || latest == nil {
		return nil, err
	}
	_, rows, err := read.Rows(ctx, tbl, read.ScanOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = render(r)
	}
	slices.Sort(out)
	return out, nil
}
